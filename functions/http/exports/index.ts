import * as z from 'zod';
import { startExportBody } from '../../contracts/exports';
import { showExport, startExport } from '../../core/exports/export-service';
import { createAreaHandler, defineRoute, respond, type AreaHandlers } from '../stack';

/** Spreadsheet exports (decisions D127–D129): start one, then follow it to its download link. */
export const handlers: AreaHandlers = {
  'start-export': defineRoute({
    body: startExportBody,
    handle: async ({ auth, body }) => respond(202, await startExport(auth!, body)),
  }),
  'get-export': defineRoute({
    params: z.object({ exportId: z.string().uuid() }),
    handle: async ({ auth, params }) => showExport(auth!, params.exportId),
  }),
};

export const handler = createAreaHandler('exports', handlers);
