import { describeFundingHistoryContract } from '../../../../test/contract/funding-history-contract.js';

describeFundingHistoryContract('okx');
