import { Injectable } from '@nestjs/common';
import { saoPauloEndOfDay, saoPauloStartOfDay } from '../common/time/sao-paulo.js';
import { MarketSampleRepository } from '../market-data/market-sample.repository.js';
import { CrossingCounter } from './crossing.engine.js';
import { CrossingCountRepository, type GroupCount } from './crossing-count.repository.js';

export interface DayResult {
  processingDate: string;
  groups: number;
  samples: number;
}

/**
 * The work of one run: stream the São Paulo day's samples (D11) in (ticker, exchange, time)
 * order, count each group with the engine as its samples go by, then store every group's count.
 * Only one counter and the per-group results (a few thousand) live in memory, never the samples.
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
    let group: { ticker: string; exchange: string; counter: CrossingCounter; samples: number } | null = null;
    for await (const page of this.samples.pricesBetween(from, to)) {
      for (const sample of page) {
        if (group === null || group.ticker !== sample.ticker || group.exchange !== sample.exchange) {
          if (group) results.push(resultOf(group));
          group = { ticker: sample.ticker, exchange: sample.exchange, counter: new CrossingCounter(), samples: 0 };
        }
        group.counter.addSample(sample);
        group.samples++;
      }
    }
    if (group) results.push(resultOf(group));
    return results;
  }
}

function resultOf(g: { ticker: string; exchange: string; counter: CrossingCounter; samples: number }): GroupCount {
  // A group with samples but no reversal still gets its record, with 0: "counted, none".
  return { ticker: g.ticker, exchange: g.exchange, crossingCount: g.counter.count, samples: g.samples };
}
