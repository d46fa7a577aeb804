import { Injectable, Logger } from '@nestjs/common';
import { RouteEpisodeRepository } from './route-episode.repository.js';
import { RouteEpisodeQueue } from './route-episodes.js';

/** Stores the episodes the live detector closed since the last round. */
@Injectable()
export class RouteEpisodeRecorder {
  private readonly logger = new Logger('RouteEpisodes');

  constructor(
    private readonly queue: RouteEpisodeQueue,
    private readonly repository: RouteEpisodeRepository,
  ) {}

  /** Writes every pending episode in one transaction; on failure they wait for the next round. Returns how many were stored. */
  async storePending(): Promise<number> {
    const { episodes, dropped } = this.queue.drain();
    if (dropped > 0) this.logger.warn({ msg: 'route episodes dropped: more than the pending limit waited for the database', dropped });
    try {
      await this.repository.insert(episodes);
    } catch (error) {
      this.queue.requeue(episodes);
      throw error;
    }
    return episodes.length;
  }

  purgeBefore(before: Date): Promise<number> {
    return this.repository.deleteBefore(before);
  }
}
