import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * DESIGN §3's direction is a lint rule (eslint.config.js, `no-restricted-imports` per folder). These are its
 * fixtures: a lower layer importing a higher one fails `npm run lint`, the allowed directions pass, and so
 * does the browser's one door to server code (`import type` from `@contracts/`). The code is linted as if
 * it stood at the path given, so the rule is tested, not a copy of it.
 */
const eslint = new ESLint({ cwd: resolve(import.meta.dirname, '../..') });

const layerErrors = async (filePath: string, code: string): Promise<string[]> => {
  const [result] = await eslint.lintText(`${code}\nexport const fixture = 1;\n`, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === '@typescript-eslint/no-restricted-imports')
    .map((m) => m.message);
};

describe('layer rules (eslint)', () => {
  it.each([
    ['functions/data/fixture.ts', "import { publish } from '../core/notifier';", 'data imports core'],
    ['functions/data/fixture.ts', "import { QUEUES } from '../jobs/registry';", 'data imports jobs'],
    ['functions/data/fixture.ts', "import { publisher } from '../realtime/publisher';", 'data imports realtime'],
    [
      'functions/core/x/fixture.ts',
      "import { realtimeNotifier } from '../../realtime/publisher';",
      'core imports realtime',
    ],
    [
      'functions/core/x/fixture.ts',
      "import { graphApi } from '../../channels/meta/graph-client';",
      'core imports channels',
    ],
    ['functions/core/x/fixture.ts', "import { handler } from '../../jobs/inbound/handler';", 'core imports jobs'],
    ['functions/core/x/fixture.ts', "import { ROUTES } from '../../routes';", 'core imports the route table'],
    [
      'functions/core/x/fixture.ts',
      "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';",
      'core imports DynamoDB',
    ],
    ['functions/shared/fixture.ts', "import { getTicket } from '../data/ticket-repository';", 'shared imports data'],
    ['functions/contracts/fixture.ts', "import { logger } from '../shared/logger';", 'contracts import shared'],
    ['functions/realtime/fixture.ts', "import { handler } from '../http/users';", 'realtime imports http'],
    [
      'functions/channels/meta/fixture.ts',
      "import { handler } from '../../jobs/outbound/handler';",
      'a channel imports jobs',
    ],
    [
      'functions/channels/meta/fixture.ts',
      "import { startEntryPoint } from '../../realtime/entry-point';",
      'a channel imports realtime',
    ],
    ['functions/jobs/x/fixture.ts', "import { createAreaHandler } from '../../http/stack';", 'jobs import http'],
    [
      'frontend/src/api/fixture.ts',
      "import { toMessageView } from '../../../functions/core/tickets/ticket-views';",
      'the browser imports core',
    ],
    [
      'frontend/src/api/fixture.ts',
      "import type { MessageView } from '../../../functions/contracts/messages';",
      'the browser imports a contract by path',
    ],
    [
      'frontend/src/api/fixture.ts',
      "import { MAX_UPLOAD_BYTES } from '@contracts/messages';",
      'the browser imports a contract at run time (zod)',
    ],
  ])('%s: %s fails (%s)', async (filePath, code) => {
    expect(await layerErrors(filePath, code)).toHaveLength(1);
  });

  it.each([
    ['functions/core/x/fixture.ts', "import { getTicket } from '../../data/ticket-repository';"],
    ['functions/core/x/fixture.ts', "import { companyChannel } from '../../contracts/realtime';"],
    ['functions/core/x/fixture.ts', "import { logger } from '../../shared/logger';"],
    ['functions/data/fixture.ts', "import { TICKET_STATUSES } from '../contracts/tickets';"],
    ['functions/realtime/fixture.ts', "import { publish } from '../core/notifier';"],
    ['functions/jobs/x/fixture.ts', "import { dispatchMetaSend } from '../../channels/meta/send-meta-message';"],
    ['functions/http/x/fixture.ts', "import { ROUTES } from '../../routes';"],
    ['functions/channels/whatsapp/worker.ts', "import { startEntryPoint } from '../../realtime/entry-point';"],
    ['frontend/src/api/fixture.ts', "import type { MessageView } from '@contracts/messages';"],
    ['frontend/src/api/fixture.ts', "import { type MessageView } from '@contracts/messages';"],
    ['frontend/src/api/fixture.ts', "import { companyChannel } from '@contracts/realtime';"],
  ])('%s: %s passes', async (filePath, code) => {
    expect(await layerErrors(filePath, code)).toEqual([]);
  });
});

/** The areas inside core (tickets, messages, contacts, ...) import each other in one direction only. */
describe('core areas', () => {
  const root = resolve(import.meta.dirname, '../../functions/core');
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
    );
  const areaOf = (file: string) => {
    const parts = relative(root, file).split('/');
    return parts.length > 1 ? parts[0]! : '(core)';
  };

  it('import no area that imports them back', () => {
    const edges = new Set<string>();
    for (const file of files(root)) {
      for (const [, spec] of readFileSync(file, 'utf8').matchAll(/from\s+'(\.[^']+)'/g)) {
        const target = resolve(dirname(file), spec!);
        if (!target.startsWith(root + '/')) continue;
        const [from, to] = [areaOf(file), areaOf(`${target}.ts`)];
        if (from !== to) edges.add(`${from} -> ${to}`);
      }
    }
    const twoWay = [...edges].filter((e) => edges.has(e.split(' -> ').reverse().join(' -> ')));
    expect(twoWay).toEqual([]);
  });
});
