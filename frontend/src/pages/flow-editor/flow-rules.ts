import type { ConditionOperator, FlowMediaKind } from '@contracts/flows';

/**
 * The editor's copy of the flow rules the server holds in functions/contracts/flows.ts (zod stays out of the
 * page chunks, so only types come from there): §9 interval and upload limits, the accepted file names, the
 * condition operators and variable names. The server checks them again on every save (decisions D138, D159).
 */
export const FLOW_MAX_INTERVAL_SECONDS = 120;
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,49}$/;
export const CONDITION_OPERATORS: readonly ConditionOperator[] = ['==', '!=', 'contains', '>', '<', '>=', '<='];

export const MEDIA_LIMITS: Record<FlowMediaKind, { maxBytes: number; extensions: readonly string[] }> = {
  img: { maxBytes: 2 * 1024 * 1024, extensions: ['png', 'jpg', 'jpeg'] },
  audio: { maxBytes: 5 * 1024 * 1024, extensions: ['ogg', 'mp3', 'opus', 'mpeg'] },
  video: { maxBytes: 20 * 1024 * 1024, extensions: ['mp4'] },
};

export const fileNameExtension = (name: string): string => {
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(name.trim());
  return match ? match[1]!.toLowerCase() : '';
};
