import Button from '@cloudscape-design/components/button';
import FormField from '@cloudscape-design/components/form-field';
import Input, { type InputProps } from '@cloudscape-design/components/input';
import { useState, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';

/** A password input with a show/hide button. */
export function PasswordField({
  label,
  value,
  onChange,
  errorText,
  constraintText,
  autoComplete,
  inputRef,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  errorText?: string | undefined;
  constraintText?: ReactNode;
  autoComplete: 'current-password' | 'new-password';
  inputRef?: Ref<InputProps.Ref>;
}) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <FormField
      label={label}
      errorText={errorText}
      constraintText={constraintText}
      secondaryControl={
        <Button
          formAction="none"
          ariaLabel={visible ? t('auth.hidePassword') : t('auth.showPassword')}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? t('auth.hide') : t('auth.show')}
        </Button>
      }
    >
      <Input
        ref={inputRef}
        type={visible ? 'text' : 'password'}
        value={value}
        autoComplete={autoComplete}
        onChange={({ detail }) => onChange(detail.value)}
      />
    </FormField>
  );
}
