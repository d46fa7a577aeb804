import { describeFundingContract } from '../../../../test/contract/funding-contract.js';

// aster names a perpetual by its own id in the funding answers.
describeFundingContract('aster', { perpetualId: (b) => `${b}USDT` });
