import { Injectable } from '@nestjs/common';
import { saoPauloEndOfDay, saoPauloStartOfDay } from '../common/time/sao-paulo.js';
import { MarketSampleRepository, PRICE_FIELDS } from '../market-data/market-sample.repository.js';
import { CrossingCounter, midOf } from './crossing.engine.js';
import { CrossingCountRepository, type GroupCount } from './crossing-count.repository.js';

export interface DayResult {
  processingDate: string;
  groups: number;
  samples: number;
}

/**
 * The work of one run: read the São Paulo day's samples (rules: funding) one (ticker, exchange) group at a
 * time in time order, count each group with the engine, then store every group's count. Memory
 * holds a few groups' prices and the per-group results (a few thousand), never the day.
 */
@Injectable()
export class CrossingCountWorker {
  constructor(
    private readonly samples: MarketSampleRepository,
    private readonly counts: CrossingCountRepository,
  ) {}

  async countDay(processingDate: string): Promise<DayResult> {
    const results = await this.countGroups(saoPauloStartOfDay(processingDate), saoPauloEndOfDay(processingDate));
    // A day without samples (not recorded, or already past retention) writes nothing: earlier
    // records of that day stay rather than being replaced by an absence of data.
    if (results.length > 0) await this.counts.upsertDay(processingDate, results);
    return { processingDate, groups: results.length, samples: results.reduce((n, g) => n + g.samples, 0) };
  }

  private async countGroups(from: Date, to: Date): Promise<GroupCount[]> {
    const results: GroupCount[] = [];
    for await (const group of this.samples.groupPricesBetween(from, to)) {
      const counter = new CrossingCounter();
      const v = group.values;
      for (let at = 0; at < v.length; at += PRICE_FIELDS) {
        counter.addMids(midOf(v[at + 1], v[at + 2]), midOf(v[at + 3], v[at + 4]));
      }
      // A group with samples but no reversal still gets its record, with 0: "counted, none".
      results.push({ ticker: group.ticker, exchange: group.exchange, crossingCount: counter.count, samples: group.count });
    }
    return results;
  }
}
