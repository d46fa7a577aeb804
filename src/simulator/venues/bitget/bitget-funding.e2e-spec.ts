import { describeFundingContract } from '../../../../test/contract/funding-contract.js';

// bitget names a perpetual by its own id in the funding answers.
describeFundingContract('bitget', { perpetualId: (b) => `${b}USDT` });
