import { createContext, useContext, type ReactNode } from 'react';
import type { AuthUser } from '@/api/auth';
import type { PlanFlags } from '@/api/plans';

/**
 * What the app shell knows and every private page may need: the signed-in user and the company's plan
 * flags (pages gated by a flag show the permission error without them, administration spec §6).
 */
export interface ShellState {
  user: AuthUser;
  planFlags: PlanFlags;
  /** False until GET /companies/listPlan answered: a page gated by a flag waits instead of refusing. */
  planLoaded: boolean;
}

const ShellContext = createContext<ShellState | null>(null);

export function ShellProvider({ value, children }: { value: ShellState; children: ReactNode }) {
  return <ShellContext value={value}>{children}</ShellContext>;
}

const useShell = (): ShellState => {
  const state = useContext(ShellContext);
  if (!state) throw new Error('a private page outside the app shell (<ShellProvider>)');
  return state;
};

/** The signed-in user, inside the app shell. */
export const useCurrentUser = (): AuthUser => useShell().user;

/** The company's plan flags, inside the app shell. */
export const usePlan = (): Pick<ShellState, 'planFlags' | 'planLoaded'> => {
  const { planFlags, planLoaded } = useShell();
  return { planFlags, planLoaded };
};
