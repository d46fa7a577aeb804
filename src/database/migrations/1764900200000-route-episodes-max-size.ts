import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Route episodes keep the largest size worth taking at their peak: `maxSizeUsdt` of
 * the episode's most profitable published event, priced from both order books; null when no
 * event of the episode had both books known.
 */
export class RouteEpisodesMaxSize1764900200000 implements MigrationInterface {
  name = 'RouteEpisodesMaxSize1764900200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE route_episodes ADD COLUMN peak_max_size_usdt double precision NULL CHECK (peak_max_size_usdt >= 0)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE route_episodes DROP COLUMN peak_max_size_usdt`);
  }
}
