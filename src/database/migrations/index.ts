import { CreateFavoriteCryptos1763769600000 } from './1763769600000-create-favorite-cryptos.js';

/** Every migration, in order. A new migration is added here as well as in its file. */
export const MIGRATIONS = [CreateFavoriteCryptos1763769600000];
