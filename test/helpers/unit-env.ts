/**
 * Unit tests run the real modules without the local cloud: they get a complete, valid configuration so
 * config() never reads a developer's shell by accident.
 */
process.env.STAGE = 'test';
process.env.TABLE_NAME = 'zapdesk-unit';
process.env.APP_SECRET = 'unit-test-secret-0123456789abcdef0123456789';
process.env.LOG_LEVEL = 'silent';
// Nothing listens here: a unit test that reaches DynamoDB fails fast instead of touching a real table.
process.env.DYNAMODB_ENDPOINT = 'http://127.0.0.1:9';
