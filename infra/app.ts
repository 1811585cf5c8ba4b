import { App } from 'aws-cdk-lib';
import { buildApp } from './stacks/build-app';

/**
 * The CDK app (`cdk.json`: `npx tsx infra/app.ts`). Environment-agnostic on purpose: synth needs no AWS
 * account, and `cdk deploy` targets the account and region of the caller's credentials.
 * Context: `-c stackPrefix=ZapDeskStaging` for a second copy, `-c logLevel=debug`, `-c tracing=true`.
 */
const app = new App();
buildApp(app);
app.synth();
