import { describeFundingContract } from './funding-contract.js';

describeFundingContract('bybit');
