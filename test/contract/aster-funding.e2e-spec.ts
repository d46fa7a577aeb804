import { describeFundingContract } from './funding-contract.js';

describeFundingContract('aster');
