import * as z from 'zod';
import { createScheduleBody, saveHolidaysBody, updateScheduleBody } from '../../contracts/schedules';
import { pagingQuery } from '../../core/paging';
import {
  createCompanySchedule,
  deleteCompanySchedule,
  deleteScheduleMedia,
  listVisibleSchedules,
  saveHolidays,
  showHolidays,
  showSchedule,
  updateCompanySchedule,
  uploadScheduleMedia,
} from '../../core/schedules/schedule-service';
import {
  createAreaHandler,
  defineRoute,
  isUploadedFile,
  respond,
  type AreaHandlers,
  type UploadedFile,
} from '../stack';

/**
 * Scheduled messages (administration §2 Schedules, §7 Schedules; decisions D118–D120) and the company's
 * holiday list their business-day rules read. The spec's form also sends `userId`, `companyId` and
 * `status`: dropped, the owner and tenant come from the token and the status from the sender.
 */
const strip = <T extends { userId?: unknown; companyId?: unknown; status?: unknown }>({
  userId: _u,
  companyId: _c,
  status: _s,
  ...rest
}: T) => rest;

const idParam = z.object({ id: z.coerce.number().int().positive() });
const filePart = z.custom<UploadedFile>(isUploadedFile, { error: 'Required: a file' });

export const handlers: AreaHandlers = {
  'list-schedules': defineRoute({
    query: z.object({
      ...pagingQuery,
      searchParam: z.string().trim().max(100).optional(),
      // A local month or day of the calendar: `2026-11`, `2026-11-27`.
      period: z
        .string()
        .regex(/^\d{4}-\d{2}(-\d{2})?$/, 'YYYY-MM or YYYY-MM-DD')
        .optional(),
      // The spec's list sends these too.
      contactId: z.unknown().optional(),
      userId: z.unknown().optional(),
    }),
    handle: async ({ auth, query }) => listVisibleSchedules(auth!, query),
  }),
  'get-schedule': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => showSchedule(auth!, params.id),
  }),
  'create-schedule': defineRoute({
    body: createScheduleBody,
    handle: async ({ auth, body }) => respond(201, await createCompanySchedule(auth!, strip(body))),
  }),
  'update-schedule': defineRoute({
    params: idParam,
    body: updateScheduleBody,
    handle: async ({ auth, params, body }) => updateCompanySchedule(auth!, params.id, strip(body)),
  }),
  'delete-schedule': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => {
      await deleteCompanySchedule(auth!, params.id);
      return respond(200, { message: 'Schedule deleted' });
    },
  }),
  'upload-schedule-media': defineRoute({
    params: idParam,
    bodyType: 'multipart',
    maxBodyBytes: 3 * 1024 * 1024,
    body: z.object({ file: filePart }, { error: 'Required: a multipart form with file' }),
    handle: async ({ auth, params, body }) => uploadScheduleMedia(auth!, params.id, body.file),
  }),
  'delete-schedule-media': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => deleteScheduleMedia(auth!, params.id),
  }),
  'get-schedule-holidays': defineRoute({
    query: z.object({ year: z.coerce.number().int().min(2000).max(2100).optional() }),
    handle: async ({ auth, query }) => showHolidays(auth!, query.year ?? new Date().getUTCFullYear()),
  }),
  'save-schedule-holidays': defineRoute({
    body: saveHolidaysBody,
    handle: async ({ auth, body }) => saveHolidays(auth!, body),
  }),
};

export const handler = createAreaHandler('schedules', handlers);
