import { ApiGatewayManagementApiClient } from '@aws-sdk/client-apigatewaymanagementapi';
import { config } from '../shared/config';

/** One management client per process, pointed at the WebSocket API's @connections endpoint. */
let client: ApiGatewayManagementApiClient | undefined;

export const managementClient = (): ApiGatewayManagementApiClient => {
  if (!client) {
    const c = config();
    if (!c.WS_MANAGEMENT_ENDPOINT) throw new Error('WS_MANAGEMENT_ENDPOINT is not configured');
    client = new ApiGatewayManagementApiClient({
      endpoint: c.WS_MANAGEMENT_ENDPOINT,
      region: c.AWS_REGION,
      ...(c.STAGE === 'aws' ? {} : { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
    });
  }
  return client;
};
