import { describeFundingHistoryContract } from './funding-history-contract.js';

describeFundingHistoryContract('aster');
