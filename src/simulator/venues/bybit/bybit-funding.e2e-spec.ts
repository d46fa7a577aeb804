import { describeFundingContract } from '../../../../test/contract/funding-contract.js';

// bybit names a perpetual by its own id in the funding answers.
describeFundingContract('bybit', { perpetualId: (b) => `${b}USDT` });
