import { describeExchangeContract } from './contract-harness.js';

describeExchangeContract('gate');
