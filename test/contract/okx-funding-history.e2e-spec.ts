import { describeFundingHistoryContract } from './funding-history-contract.js';

describeFundingHistoryContract('okx');
