import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { InvalidEnvironmentError, toAppConfig, validateEnv } from './validate-env.js';

describe('market-data config: INGEST_WORKERS', () => {
  it('defaults to one worker per spare core, at least one', () => {
    expect(toAppConfig(validateEnv({})).marketData.ingestWorkers).toBe(Math.max(1, availableParallelism() - 1));
  });

  it('takes 1 to 5 workers', () => {
    expect(toAppConfig(validateEnv({ INGEST_WORKERS: '3' })).marketData.ingestWorkers).toBe(3);
  });

  it.each(['0', '6', '1.5', 'two'])('INGEST_WORKERS=%s is refused with a message naming it', (value) => {
    expect(() => validateEnv({ INGEST_WORKERS: value })).toThrow(InvalidEnvironmentError);
    expect(() => validateEnv({ INGEST_WORKERS: value })).toThrow('INGEST_WORKERS must be an integer from 1 to 5');
  });

  it('INGEST_WORKER_HEAP_MB defaults to 224 and is bounded', () => {
    expect(toAppConfig(validateEnv({})).marketData.ingestWorkerHeapMb).toBe(224);
    expect(toAppConfig(validateEnv({ INGEST_WORKER_HEAP_MB: '512' })).marketData.ingestWorkerHeapMb).toBe(512);
    expect(() => validateEnv({ INGEST_WORKER_HEAP_MB: '64' })).toThrow('INGEST_WORKER_HEAP_MB must be an integer from 128 to 16384');
  });
});
