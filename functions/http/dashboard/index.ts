import { chartQuery, dashboardQuery, momentsQuery, reportQuery } from '../../contracts/dashboard';
import {
  dashboardMoments,
  getDashboard,
  ticketsPerDay,
  ticketsPerUser,
  usersMoments,
} from '../../core/dashboard/dashboard-service';
import { ticketsReport } from '../../core/dashboard/report-service';
import { createAreaHandler, defineRoute, type AreaHandlers } from '../stack';
import * as z from 'zod';

export const handlers: AreaHandlers = {
  'get-dashboard': defineRoute({
    query: dashboardQuery,
    handle: async ({ auth, query }) => getDashboard(auth!, query),
  }),
  'tickets-users': defineRoute({
    query: chartQuery,
    handle: async ({ auth, query }) => ticketsPerUser(auth!, query),
  }),
  'tickets-day': defineRoute({
    query: chartQuery,
    handle: async ({ auth, query }) => ticketsPerDay(auth!, query),
  }),
  'users-moments': defineRoute({
    query: z.object({ companyId: z.unknown().optional() }),
    handle: async ({ auth }) => usersMoments(auth!),
  }),
  'dashboard-moments': defineRoute({
    query: momentsQuery,
    handle: async ({ auth, query }) => dashboardMoments(auth!, query),
  }),
  'tickets-report': defineRoute({
    query: reportQuery,
    handle: async ({ auth, query }) => ticketsReport(auth!, query),
  }),
};

export const handler = createAreaHandler('dashboard', handlers);
