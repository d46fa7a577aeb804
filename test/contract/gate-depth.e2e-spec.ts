import { describeDepthContract } from './depth-contract.js';

describeDepthContract('gate', { limit: 20, unwatchParams: () => ({ limit: 20 }) });
