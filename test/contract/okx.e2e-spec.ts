import { describeExchangeContract } from './contract-harness.js';

describeExchangeContract('okx');
