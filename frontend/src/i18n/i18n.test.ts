import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, json } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';
import en from './en.json';
import es from './es.json';
import pt from './pt.json';
import tr from './tr.json';
import { LANGUAGE_STORAGE_KEY, toLanguage } from './index';

/** Every catalogue code of core spec §8 plus the codes our own API answers with. */
const ERROR_CODES = [
  'ERR_NO_OTHER_WHATSAPP',
  'ERR_NO_DEF_WAPP_FOUND',
  'ERR_WAPP_NOT_INITIALIZED',
  'ERR_WAPP_CHECK_CONTACT',
  'ERR_WAPP_INVALID_CONTACT',
  'ERR_WAPP_DOWNLOAD_MEDIA',
  'ERR_INVALID_CREDENTIALS',
  'ERR_SENDING_WAPP_MSG',
  'ERR_DELETE_WAPP_MSG',
  'ERR_OTHER_OPEN_TICKET',
  'ERR_SESSION_EXPIRED',
  'ERR_USER_CREATION_DISABLED',
  'ERR_NO_PERMISSION',
  'ERR_DUPLICATED_CONTACT',
  'ERR_NO_SETTING_FOUND',
  'ERR_NO_CONTACT_FOUND',
  'ERR_NO_TICKET_FOUND',
  'ERR_NO_USER_FOUND',
  'ERR_NO_WAPP_FOUND',
  'ERR_CREATING_MESSAGE',
  'ERR_CREATING_TICKET',
  'ERR_FETCH_WAPP_MSG',
  'ERR_QUEUE_COLOR_ALREADY_EXISTS',
  'ERR_WAPP_GREETING_REQUIRED',
  'ERR_OUT_OF_HOURS',
  'ERR_NOT_FOUND',
  'ERR_VALIDATION',
  'ERR_MALFORMED_JSON',
  'ERR_INVALID_CURSOR',
  'ERR_TOO_MANY_REQUESTS',
  'ERR_INVALID_RESET_CODE',
  'ERR_COMPANY_INACTIVE',
  'ERR_PLAN_LIMIT_CONNECTIONS',
  'ERR_SUBSCRIPTION_EXPIRED',
  'ERR_INTERNAL',
  'ERR_INVALID_TOKEN',
  'ERR_INVALID_IMAGE',
  'ERR_MALFORMED_BODY',
  'ERR_META_WINDOW_CLOSED',
  'ERR_META_NOT_CONFIGURED',
  'ERR_META_GRAPH',
  'ERR_META_ALREADY_CONNECTED',
  'ERR_META_NOT_CONNECTED',
  'ERR_NO_FILE_FOUND',
  'ERR_FILE_LIST_IN_USE',
  'ERR_QUEUE_IN_USE',
  'ERR_PLAN_LIMIT_QUEUES',
  'ERR_CHATBOT_NOT_FOUND',
  'ERR_QUEUE_NOT_FOUND',
  'ERR_INTEGRATION_IN_USE',
  'ERR_PROMPT_IN_USE',
  'ERR_NO_INTEGRATION_FOUND',
  'ERR_NO_PROMPT_FOUND',
];

type Tree = { [key: string]: string | Tree };
const keysOf = (tree: Tree, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : keysOf(v, `${prefix}${k}.`)));

const bundles: Record<string, Tree> = { pt, en, es, tr };

describe('translations', () => {
  it.each(Object.keys(bundles))('%s has exactly the keys of pt, none empty', (lang) => {
    const bundle = bundles[lang] as Tree;
    expect(keysOf(bundle).sort()).toEqual(keysOf(pt).sort());
    const empty = keysOf(bundle).filter((key) => {
      const value = key.split('.').reduce<string | Tree | undefined>((node, part) => (node as Tree)?.[part], bundle);
      return typeof value !== 'string' || value.trim() === '';
    });
    expect(empty).toEqual([]);
  });

  it.each(Object.keys(bundles))('%s translates every error code of the catalogue', (lang) => {
    const errors = (bundles[lang] as { backendErrors: Record<string, string> }).backendErrors;
    expect(ERROR_CODES.filter((code) => !errors[code])).toEqual([]);
  });

  it('maps browser language tags to ours', () => {
    expect(toLanguage('pt-BR')).toBe('pt');
    expect(toLanguage('EN_us')).toBe('en');
    expect(toLanguage('fr')).toBeUndefined();
    expect(toLanguage(null)).toBeUndefined();
  });
});

describe('switching language', () => {
  it('shows Portuguese by default and English after picking it, and remembers the choice', async () => {
    const { wrapper } = renderApp({
      path: '/status',
      adapter: fakeApi({ 'GET /version': () => json(200, { version: '7.0.0' }) }).adapter,
    });
    expect(await screen.findByRole('heading', { name: 'Status do sistema' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('pt-BR');

    const select = wrapper.findSelect();
    if (!select) throw new Error('no language select');
    select.openDropdown();
    select.selectOptionByValue('en');

    expect(await screen.findByRole('heading', { name: 'System status' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Status do sistema' })).toBeNull();
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('en');
    expect(document.documentElement.lang).toBe('en');
  });
});
