import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { logger } from '../../functions/shared/logger';
import { accessLog } from '../../functions/http/middleware/access-log';
import { httpEvent, lambdaContext } from '../helpers/http-event';

type Request = middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>;

const logged = async (method: string, path: string): Promise<Record<string, unknown>> => {
  const info = vi.spyOn(logger, 'info');
  const middleware = accessLog();
  const request = {
    event: httpEvent(method, path),
    context: lambdaContext(),
    response: { statusCode: 200 },
    error: null,
    internal: {},
  } as unknown as Request;
  await middleware.before!(request);
  await middleware.after!(request);
  expect(info).toHaveBeenCalledTimes(1);
  return info.mock.calls[0]![1]!;
};

afterEach(() => vi.restoreAllMocks());

describe('the access log', () => {
  it('names route and path of a request', async () => {
    const line = await logged('POST', '/forgetpassword/ana%40example.com');
    expect(line).toMatchObject({ route: 'POST /api/forgetpassword/{email}', status: 200 });
    expect(line.path).toBe('/api/forgetpassword/ana%40example.com');
  });

  it('leaves out the path of resetpasswords, which holds the code and the new password', async () => {
    const line = await logged('POST', '/resetpasswords/ana%40example.com/481516/N0va%40Senha');
    expect(line.route).toBe('POST /api/resetpasswords/{email}/{token}/{newPassword}');
    expect(line).not.toHaveProperty('path');
    expect(JSON.stringify(line)).not.toMatch(/481516|N0va|ana%40/);
  });
});
