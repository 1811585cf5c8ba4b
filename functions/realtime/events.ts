import type { APIGatewayProxyResultV2 } from 'aws-lambda';

/** The parts of an API Gateway WebSocket event our handlers read. */
export interface WsEvent {
  requestContext: {
    routeKey: string;
    eventType: 'CONNECT' | 'DISCONNECT' | 'MESSAGE';
    connectionId: string;
    requestId: string;
    connectedAt?: number;
  };
  queryStringParameters?: Record<string, string | undefined> | null;
  headers?: Record<string, string | undefined>;
  body?: string | null;
  isBase64Encoded?: boolean;
}

export type WsResult = APIGatewayProxyResultV2;

export const wsStatus = (statusCode: number, body?: unknown): WsResult => ({
  statusCode,
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});
