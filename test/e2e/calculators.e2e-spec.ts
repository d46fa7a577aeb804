import request from 'supertest';
import { getRepositoryToken } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CalculatorEntity } from '../../src/calculators/calculator.entity.js';
import { CalculatorStreamsService } from '../../src/calculators/calculator-streams.service.js';
import { SseHub } from '../../src/common/sse/sse-hub.service.js';
import { MarketSampleRepository } from '../../src/market-data/market-sample.repository.js';
import { SseTestClient, rawGet } from '../utils/sse-client.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';
import { nextMillisecond, sleep, until } from '../utils/wait.js';

/** Small windows so the 55 s / 5 s / 20 min rules (rules: calculator-market-data) show in a few seconds. */
const PROCESS_CACHE_MS = 1200;
const STREAM_CACHE_MS = 1500;
const MAX_AGE_MS = 60_000;
const MISSING = 'market-data-missing';

interface Pnl {
  [field: string]: unknown;
  currentSpotPrice: number;
  pnl: number;
}

describe('calculators (rules: calculator, pnl, journal, streams, errors, calculator-market-data)', () => {
  let t: TestApp;
  let samples: MarketSampleRepository;
  const clients: SseTestClient[] = [];

  beforeAll(async () => {
    t = await startTestApp({
      CALCULATOR_PROCESS_CACHE_MS: String(PROCESS_CACHE_MS),
      CALCULATOR_STREAM_CACHE_MS: String(STREAM_CACHE_MS),
      CALCULATOR_MARKET_DATA_MAX_AGE_MS: String(MAX_AGE_MS),
      SAMPLE_INTERVAL_MS: '0',
    });
    samples = t.app.get(MarketSampleRepository);
    await samples.ensurePartitions(Date.now() - 86_400_000, 3);
  });
  afterEach(() => {
    clients.splice(0).forEach((c) => c.close());
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    await t.close();
  });

  const save = (body: unknown) => request(t.baseUrl).post('/v1/calculators').send(body as object);
  const processPnl = (body: unknown) => request(t.baseUrl).post('/v1/calculators/process').send(body as object);
  const position = (email: string, ticker: string, values: Partial<Record<string, number>> = {}) => ({
    email,
    ticker,
    entrySpotValue: 100,
    entryShortValue: 110,
    entrySpotQty: 1,
    entryFuturesQty: 1,
    ...values,
  });
  /** Records a sample through the recorder's own repository, `ageMs` before now. */
  /** Records a sample `ageMs` old and answers its time, which `marketDataAt` must report. */
  const record = async (ticker: string, exchange: string, p: { spotBid: number; futuresAsk: number; fundingRate?: number | null }, ageMs = 0): Promise<Date> => {
    const time = new Date(Date.now() - ageMs);
    await samples.insert([
      {
        time,
        ticker,
        exchange,
        spotBid: p.spotBid,
        spotAsk: p.spotBid + 7,
        futuresBid: p.futuresAsk - 9,
        futuresAsk: p.futuresAsk,
        fundingRate: p.fundingRate ?? null,
      },
    ]);
    return time;
  };
  const stream = (query: Record<string, string>) => {
    const client = new SseTestClient(`${t.baseUrl}/v1/calculators/stream?${new URLSearchParams(query).toString()}`, [MISSING]);
    clients.push(client);
    return client;
  };
  const streams = () => t.app.get(CalculatorStreamsService);
  const hub = () => t.app.get(SseHub);

  describe('POST /v1/calculators (rules: calculator, journal, calculator-market-data)', () => {
    it('creates an entry: 200 with the computed totals and spread and a millisecond timestamp', async () => {
      const before = Date.now();
      const res = await save(position('calc1@example.com', 'BTC-USDT', { entrySpotValue: 95000, entryShortValue: 95150, entrySpotQty: 0.5, entryFuturesQty: 0.4 })).expect(200);
      // 95000 × 0.5 = 47500; 95150 × 0.4 = 38060; 95150 − 95000 = 150; 150 ÷ 95000 × 100 = 0.15789473684…
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        email: 'calc1@example.com',
        ticker: 'BTC-USDT',
        entrySpotValue: 95000,
        entryShortValue: 95150,
        entrySpotQty: 0.5,
        entryFuturesQty: 0.4,
        entrySpotTotalValue: 47500,
        entryFuturesTotalValue: 38060,
        entrySpread: 150,
        entrySpreadPercentage: 0.15789474,
        timestamp: expect.any(Number),
      });
      expect(res.body.timestamp).toBeGreaterThanOrEqual(before - 1000);
      expect(res.body.timestamp).toBeLessThanOrEqual(Date.now() + 1000);
    });

    it('normalises the ticker to BASE-QUOTE and the e-mail to lower case (rules: tickers)', async () => {
      const res = await save(position('Calc2@Example.com', 'ethusdt')).expect(200);
      expect(res.body.ticker).toBe('ETH-USDT');
      expect(res.body.email).toBe('calc2@example.com');
    });

    it('a second save of (email, ticker) overwrites every value and quantity, keeping id and timestamp (rules: quotes)', async () => {
      const first = await save(position('upsert@example.com', 'SOL-USDT')).expect(200);
      await nextMillisecond(); // the two saves get different clock readings (the kept timestamp must be the first's)
      const second = await save(
        position('UPSERT@example.com', 'solusdt', { entrySpotValue: 200, entryShortValue: 205, entrySpotQty: 3, entryFuturesQty: 2 }),
      ).expect(200);
      expect(second.body).toEqual({
        id: first.body.id,
        email: 'upsert@example.com',
        ticker: 'SOL-USDT',
        entrySpotValue: 200,
        entryShortValue: 205,
        entrySpotQty: 3,
        entryFuturesQty: 2,
        entrySpotTotalValue: 600,
        entryFuturesTotalValue: 410,
        entrySpread: 5,
        entrySpreadPercentage: 2.5,
        timestamp: first.body.timestamp,
      });
      const list = await request(t.baseUrl).get('/v1/calculators').query({ email: 'upsert@example.com' }).expect(200);
      expect(list.body).toEqual([second.body]);
    });

    it('the same ticker for another user, or another ticker, is another entry', async () => {
      const a = await save(position('pair-a@example.com', 'BTC-USDT')).expect(200);
      const b = await save(position('pair-b@example.com', 'BTC-USDT')).expect(200);
      const c = await save(position('pair-a@example.com', 'ETH-USDT')).expect(200);
      expect(new Set([a.body.id, b.body.id, c.body.id]).size).toBe(3);
    });

    it('concurrent saves of one (email, ticker) make one row, holding one of the saved versions', async () => {
      const email = 'race@example.com';
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) => save(position(email, 'XRP-USDT', { entrySpotValue: 1 + i, entrySpotQty: 10 + i }))),
      );
      expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
      expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
      const list = await request(t.baseUrl).get('/v1/calculators').query({ email }).expect(200);
      expect(list.body).toHaveLength(1);
      const stored = list.body[0];
      expect(stored.entrySpotQty - stored.entrySpotValue).toBe(9); // one request's values, never a mix
      const rows = await t.app.get<Repository<CalculatorEntity>>(getRepositoryToken(CalculatorEntity)).countBy({ email });
      expect(rows).toBe(1);
    });

    it('accepts tiny and large numbers and keeps them exactly', async () => {
      const res = await save(position('sizes@example.com', 'PEPE-USDT', { entrySpotValue: 1e-8, entryShortValue: 1.2e-8, entrySpotQty: 1e10, entryFuturesQty: 1e10 })).expect(200);
      expect(res.body).toMatchObject({ entrySpotValue: 1e-8, entryShortValue: 1.2e-8, entrySpotTotalValue: 100, entryFuturesTotalValue: 120, entrySpread: 2e-9, entrySpreadPercentage: 20 });
    });

    describe('400s with the `errors` rule body: required fields first in the API contract order, then the first other problem', () => {
      it('malformed JSON: Invalid request body', async () => {
        const res = await request(t.baseUrl).post('/v1/calculators').set('Content-Type', 'application/json').send('{"email": ').expect(400);
        expect(res.body).toEqual({ statusCode: 400, message: 'Invalid request body', error: 'Bad Request' });
      });

      it('a JSON array body: Invalid request body', async () => {
        const res = await request(t.baseUrl).post('/v1/calculators').set('Content-Type', 'application/json').send('[]').expect(400);
        expect(res.body.message).toBe('Invalid request body');
      });

      const ok = position('v@example.com', 'BTC-USDT');
      it.each([
        [{}, 'email is required'],
        [{ ...ok, email: undefined }, 'email is required'],
        [{ ...ok, email: '  ' }, 'email is required'],
        [{ ...ok, ticker: undefined }, 'ticker is required'],
        [{ ...ok, ticker: '' }, 'ticker is required'],
        [{ email: 'v@example.com' }, 'ticker is required'],
        [{ ...ok, email: 'nope', ticker: undefined }, 'ticker is required'],
        [{ ...ok, entrySpotValue: undefined }, 'entrySpotValue is required'],
        [{ ...ok, entryShortValue: null }, 'entryShortValue is required'],
        [{ ...ok, entrySpotQty: undefined }, 'entrySpotQty is required'],
        [{ ...ok, entryFuturesQty: undefined }, 'entryFuturesQty is required'],
        [{ ...ok, email: 'nope', entryFuturesQty: undefined }, 'entryFuturesQty is required'],
        [{ ...ok, email: 'nope' }, 'email is invalid'],
        [{ ...ok, ticker: 'BTC/USDT' }, 'ticker is invalid'],
        [{ ...ok, ticker: 'BTCXYZ' }, 'ticker is invalid'],
        [{ ...ok, entrySpotValue: 'abc' }, 'entrySpotValue must be a number'],
        [{ ...ok, entrySpotValue: '100' }, 'entrySpotValue must be a number'],
        [{ ...ok, entryShortValue: true }, 'entryShortValue must be a number'],
        [{ ...ok, entrySpotValue: 0 }, 'entrySpotValue must be a positive number'],
        [{ ...ok, entryShortValue: -1 }, 'entryShortValue must be a positive number'],
        [{ ...ok, entrySpotQty: 0 }, 'entrySpotQty must be a positive number'],
        [{ ...ok, entryFuturesQty: -0.5 }, 'entryFuturesQty must be a positive number'],
      ])('%j -> %s', async (body, message) => {
        const res = await save(body).expect(400);
        expect(res.body).toEqual({ statusCode: 400, message, error: 'Bad Request' });
      });
    });

    it('figures out of range are a 400 in the `errors` rule shape and nothing is stored (was 200 with pnl null and isProfitable true)', async () => {
      const email = 'huge@example.com';
      // 1e200 × 1e200 overflows a double: the response once held null figures.
      const res = await save(position(email, 'BTC-USDT', { entrySpotValue: 1e200, entryShortValue: 1e200, entrySpotQty: 1e200, entryFuturesQty: 1e200 })).expect(400);
      expect(res.body).toEqual({ statusCode: 400, message: 'entrySpotTotalValue is out of range (figures are limited to ±1e13)', error: 'Bad Request' });
      // 2e6 × 5e6 = 1e13 reaches the limit; the spot total (1 × 1) is fine, the futures total is not.
      const futures = await save(position(email, 'BTC-USDT', { entrySpotValue: 1, entryShortValue: 2e6, entrySpotQty: 1, entryFuturesQty: 5e6 })).expect(400);
      expect(futures.body.message).toBe('entryFuturesTotalValue is out of range (figures are limited to ±1e13)');
      expect((await request(t.baseUrl).get('/v1/calculators').query({ email }).expect(200)).body).toEqual([]);
    });

    it('process: a pnl out of range at current prices is a 400 naming it', async () => {
      // entry total 1 × 1e12 + 1 × 1 is in range; at a spot bid of 100: (100 − 1) × 1e12 = 9.9e13
      await save(position('far@example.com', 'XRP-USDT', { entrySpotValue: 1, entryShortValue: 1, entrySpotQty: 1e12, entryFuturesQty: 1 })).expect(200);
      await record('XRP-USDT', 'bybit', { spotBid: 100, futuresAsk: 1 }, 1000);
      const res = await processPnl({ email: 'far@example.com', ticker: 'XRP-USDT', exchange: 'bybit' }).expect(400);
      expect(res.body).toEqual({ statusCode: 400, message: 'pnl is out of range (figures are limited to ±1e13)', error: 'Bad Request' });
    });

    it('break-even is pnl 0 and not profitable, through the API (doubles said 5.68e-14, profitable)', async () => {
      await save(position('even@example.com', 'SOL-USDT', { entrySpotValue: 300.01, entryShortValue: 300.07, entrySpotQty: 1, entryFuturesQty: 1 })).expect(200);
      await record('SOL-USDT', 'okx', { spotBid: 300.22, futuresAsk: 300.28 }, 1000);
      const res = await processPnl({ email: 'even@example.com', ticker: 'SOL-USDT', exchange: 'okx' }).expect(200);
      // spot (300.22 − 300.01) × 1 = 0.21; futures (300.07 − 300.28) × 1 = −0.21; pnl 0
      // entry spread 300.07 − 300.01 = 0.06; 0.06 ÷ 300.01 × 100 = 0.01999933335… → 0.01999933
      expect(res.body).toMatchObject({ pnl: 0, pnlPercentage: 0, isProfitable: false, currentSpread: 0.06, entrySpread: 0.06, entrySpreadPercentage: 0.01999933 });
    });

    it('500 Failed to create or update calculator when saving fails, with nothing internal in the body', async () => {
      const repo = t.app.get<Repository<CalculatorEntity>>(getRepositoryToken(CalculatorEntity));
      vi.spyOn(repo, 'query').mockRejectedValueOnce(new Error('relation "calculators" exploded at /srv/db.ts'));
      const res = await save(position('fail@example.com', 'BTC-USDT')).expect(500);
      expect(res.body).toEqual({ statusCode: 500, message: 'Failed to create or update calculator', error: 'Internal Server Error' });
    });
  });

  describe('GET and DELETE /v1/calculators', () => {
    it('lists newest first, [] for none, 400 without email', async () => {
      const email = 'order@example.com';
      for (const ticker of ['BTC-USDT', 'ETH-USDT', 'SOL-USDT']) {
        await save(position(email, ticker)).expect(200);
        await nextMillisecond(); // distinct creation times, which order the list
      }
      await save(position(email, 'BTC-USDT', { entrySpotQty: 9 })).expect(200); // an update does not move it up
      const res = await request(t.baseUrl).get('/v1/calculators').query({ email: 'Order@example.com' }).expect(200);
      expect(res.body.map((c: { ticker: string }) => c.ticker)).toEqual(['SOL-USDT', 'ETH-USDT', 'BTC-USDT']);
      await request(t.baseUrl).get('/v1/calculators').query({ email: 'nobody@example.com' }).expect(200, []);
      const bad = await request(t.baseUrl).get('/v1/calculators').expect(400);
      expect(bad.body).toEqual({ statusCode: 400, message: 'email is required', error: 'Bad Request' });
    });

    it("deletes the owner's entry with 204, then 404 calculator not found", async () => {
      const { body } = await save(position('del@example.com', 'BTC-USDT')).expect(200);
      await request(t.baseUrl).delete(`/v1/calculators/${body.id}`).query({ email: 'del@example.com' }).expect(204);
      const again = await request(t.baseUrl).delete(`/v1/calculators/${body.id}`).query({ email: 'del@example.com' }).expect(404);
      expect(again.body).toEqual({ statusCode: 404, message: 'calculator not found', error: 'Not Found' });
      await request(t.baseUrl).get('/v1/calculators').query({ email: 'del@example.com' }).expect(200, []);
    });

    it("another user's id is 404 and the entry stays; a non-uuid id is 404; no email is 400", async () => {
      const { body } = await save(position('owner@example.com', 'BTC-USDT')).expect(200);
      await request(t.baseUrl).delete(`/v1/calculators/${body.id}`).query({ email: 'thief@example.com' }).expect(404);
      await request(t.baseUrl).get('/v1/calculators').query({ email: 'owner@example.com' }).expect(200).expect((r) => expect(r.body).toHaveLength(1));
      const notUuid = await request(t.baseUrl).delete('/v1/calculators/xyz').query({ email: 'owner@example.com' }).expect(404);
      expect(notUuid.body.message).toBe('calculator not found');
      const noEmail = await request(t.baseUrl).delete(`/v1/calculators/${body.id}`).expect(400);
      expect(noEmail.body.message).toBe('email is required');
    });

    it('after a delete the same pair can be saved again as a new entry', async () => {
      const first = await save(position('again@example.com', 'BTC-USDT')).expect(200);
      await request(t.baseUrl).delete(`/v1/calculators/${first.body.id}`).query({ email: 'again@example.com' }).expect(204);
      const second = await save(position('again@example.com', 'BTC-USDT')).expect(200);
      expect(second.body.id).not.toBe(first.body.id);
    });
  });

  describe('POST /v1/calculators/process (rules: calculator, pnl, calculator-market-data)', () => {
    it('200 with the PNL from the spot BID and futures ASK, matching a hand calculation', async () => {
      await save(position('proc@example.com', 'BTC-USDT', { entrySpotValue: 95000, entryShortValue: 95150, entrySpotQty: 0.5, entryFuturesQty: 0.5 })).expect(200);
      // spot bid 96000 (ask 96007), futures ask 96050 (bid 96041)
      const sampledAt = await record('BTC-USDT', 'binance', { spotBid: 96000, futuresAsk: 96050, fundingRate: 0.0001 }, 1000);
      const res = await processPnl({ email: 'proc@example.com', ticker: 'btcusdt', exchange: 'Binance' }).expect(200);
      // spot change (96000 − 95000) × 0.5 = 500; futures change (95150 − 96050) × 0.5 = −450; pnl 50
      // entry total 47500 + 47575 = 95075; 50 ÷ 95075 × 100 = 0.052590060478569…
      // current spread 96050 − 96000 = 50; 50 ÷ 96000 × 100 = 0.0520833…
      expect(res.body).toEqual({
        email: 'proc@example.com',
        ticker: 'BTC-USDT',
        exchange: 'binance',
        entrySpotValue: 95000,
        entryShortValue: 95150,
        entrySpotQty: 0.5,
        entryFuturesQty: 0.5,
        entrySpread: 150,
        entrySpreadPercentage: 0.15789474,
        currentSpotPrice: 96000,
        currentFuturePrice: 96050,
        currentSpread: 50,
        currentSpreadPercentage: 0.05208333,
        fundingRate: 0.0001,
        pnl: 50,
        pnlPercentage: 0.05259006,
        isProfitable: true,
        marketDataAt: sampledAt.toISOString(),
      });
    });

    it('unequal quantities, a negative current spread, no funding rate; a re-save is valued at once', async () => {
      await save(position('loss@example.com', 'ETH-USDT', { entrySpotValue: 2000, entryShortValue: 2010, entrySpotQty: 1.5, entryFuturesQty: 1.2 })).expect(200);
      await record('ETH-USDT', 'okx', { spotBid: 1900, futuresAsk: 1880 }, 1000);
      const res = await processPnl({ email: 'loss@example.com', ticker: 'ETH-USDT', exchange: 'okx' }).expect(200);
      // spot (1900 − 2000) × 1.5 = −150; futures (2010 − 1880) × 1.2 = 156; pnl 6
      expect(res.body.pnl).toBe(6);
      expect(res.body.currentSpread).toBe(-20);
      expect(res.body.currentSpreadPercentage).toBe(-1.05263158); // −20 ÷ 1900 × 100
      expect(res.body.pnlPercentage).toBe(0.11086475); // 6 ÷ 5412 × 100
      expect(res.body.fundingRate).toBeNull();
      await save(position('loss@example.com', 'ETH-USDT', { entrySpotValue: 2000, entryShortValue: 2010, entrySpotQty: 1, entryFuturesQty: 1 }));
      const resaved = await processPnl({ email: 'loss@example.com', ticker: 'ETH-USDT', exchange: 'okx' }).expect(200);
      // spot −100; futures (2010 − 1880) = 130; pnl 30: the new entry values against the same prices
      expect(resaved.body.pnl).toBe(30);
    });

    it('exactly zero pnl is not profitable', async () => {
      await save(position('zero@example.com', 'ADA-USDT', { entrySpotValue: 100, entryShortValue: 110, entrySpotQty: 2, entryFuturesQty: 2 }));
      await record('ADA-USDT', 'gate', { spotBid: 101, futuresAsk: 111 }, 1000);
      const res = await processPnl({ email: 'zero@example.com', ticker: 'ADA-USDT', exchange: 'gate' }).expect(200);
      // (101 − 100) × 2 + (110 − 111) × 2 = 0
      expect(res.body).toMatchObject({ pnl: 0, pnlPercentage: 0, isProfitable: false });
    });

    it('a loss is not profitable', async () => {
      await save(position('realloss@example.com', 'DOT-USDT', { entrySpotValue: 10, entryShortValue: 11, entrySpotQty: 4, entryFuturesQty: 4 }));
      await record('DOT-USDT', 'bitget', { spotBid: 9.5, futuresAsk: 11.25 }, 1000);
      const res = await processPnl({ email: 'realloss@example.com', ticker: 'DOT-USDT', exchange: 'bitget' }).expect(200);
      // (9.5 − 10) × 4 = −2; (11 − 11.25) × 4 = −1; pnl −3; total 84; −3 ÷ 84 × 100 = −3.5714…
      expect(res.body.pnl).toBe(-3);
      expect(res.body.pnlPercentage).toBe(-3.57142857);
      expect(res.body.isProfitable).toBe(false);
    });

    it('uses the latest sample of that exchange only', async () => {
      await save(position('latest@example.com', 'LTC-USDT'));
      await record('LTC-USDT', 'bybit', { spotBid: 90, futuresAsk: 100 }, 5000);
      await record('LTC-USDT', 'bybit', { spotBid: 105, futuresAsk: 108 }, 2000);
      await record('LTC-USDT', 'binance', { spotBid: 500, futuresAsk: 500 }, 1000);
      const res = await processPnl({ email: 'latest@example.com', ticker: 'LTC-USDT', exchange: 'bybit' }).expect(200);
      expect(res.body).toMatchObject({ exchange: 'bybit', currentSpotPrice: 105, currentFuturePrice: 108, pnl: 7 });
    });

    it('404 calculator not found comes before market data (none of either)', async () => {
      const res = await processPnl({ email: 'ghost@example.com', ticker: 'BTC-USDT', exchange: 'binance' }).expect(404);
      expect(res.body).toEqual({ statusCode: 404, message: 'calculator not found', error: 'Not Found' });
    });

    it('404 market data not found: no sample, a sample on another exchange, or one older than the window', async () => {
      await save(position('nodata@example.com', 'AVAX-USDT'));
      const body = { email: 'nodata@example.com', ticker: 'AVAX-USDT', exchange: 'binance' };
      const none = await processPnl(body).expect(404);
      expect(none.body).toEqual({ statusCode: 404, message: 'market data not found', error: 'Not Found' });
      await record('AVAX-USDT', 'bybit', { spotBid: 100, futuresAsk: 110 }, 1000);
      await processPnl(body).expect(404);
      await record('AVAX-USDT', 'binance', { spotBid: 100, futuresAsk: 110 }, MAX_AGE_MS + 1000);
      await processPnl(body).expect(404);
      await record('AVAX-USDT', 'binance', { spotBid: 100, futuresAsk: 110 }, MAX_AGE_MS - 5000);
      await processPnl(body).expect(200);
    });

    it('market data is cached per (ticker, exchange) for the configured window, then read again', async () => {
      await save(position('cache@example.com', 'LINK-USDT'));
      await record('LINK-USDT', 'binance', { spotBid: 100, futuresAsk: 110 }, 1000);
      const body = { email: 'cache@example.com', ticker: 'LINK-USDT', exchange: 'binance' };
      const first = await processPnl(body).expect(200);
      const cachedAt = Date.now();
      await record('LINK-USDT', 'binance', { spotBid: 120, futuresAsk: 125 });
      const inside = await processPnl(body).expect(200);
      if (Date.now() - cachedAt < PROCESS_CACHE_MS) expect(inside.body.currentSpotPrice).toBe(first.body.currentSpotPrice);
      await sleep(PROCESS_CACHE_MS + 100); // time: the cache window must pass
      const after = await processPnl(body).expect(200);
      expect(after.body.currentSpotPrice).toBe(120);
      expect(after.body.currentFuturePrice).toBe(125);
    });

    it('concurrent requests for one uncached key make one market-data query', async () => {
      await save(position('burst@example.com', 'TRX-USDT'));
      await record('TRX-USDT', 'binance', { spotBid: 100, futuresAsk: 110 }, 1000);
      const spy = vi.spyOn(samples, 'latestSample');
      const body = { email: 'burst@example.com', ticker: 'TRX-USDT', exchange: 'binance' };
      const results = await Promise.all(Array.from({ length: 10 }, () => processPnl(body)));
      expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
      expect(spy.mock.calls.filter(([ticker]) => ticker === 'TRX-USDT')).toHaveLength(1);
    });

    describe('400s in the API contract order', () => {
      const ok = { email: 'p@example.com', ticker: 'BTC-USDT', exchange: 'binance' };
      it('malformed JSON: Invalid request body', async () => {
        const res = await request(t.baseUrl).post('/v1/calculators/process').set('Content-Type', 'application/json').send('{').expect(400);
        expect(res.body).toEqual({ statusCode: 400, message: 'Invalid request body', error: 'Bad Request' });
      });
      it.each([
        [{}, 'email is required'],
        [{ ticker: 'BTC-USDT', exchange: 'binance' }, 'email is required'],
        [{ email: 'p@example.com', exchange: 'binance' }, 'ticker is required'],
        [{ email: 'p@example.com', ticker: 'BTC-USDT' }, 'exchange is required'],
        [{ ...ok, exchange: '  ' }, 'exchange is required'],
        [{ ...ok, email: 'bad', exchange: undefined }, 'exchange is required'],
        [{ ...ok, ticker: 'nope!' }, 'ticker is invalid'],
        [{ ...ok, email: 'bad' }, 'email is invalid'],
        [{ ...ok, exchange: 'kraken' }, 'exchange must be one of binance, bybit, okx, gate, bitget'],
        [{ ...ok, exchange: 7 }, 'exchange must be one of binance, bybit, okx, gate, bitget'],
      ])('%j -> %s', async (body, message) => {
        const res = await processPnl(body).expect(400);
        expect(res.body).toEqual({ statusCode: 400, message, error: 'Bad Request' });
      });
    });

    it('500 Failed to process calculator on an internal error', async () => {
      await save(position('boom@example.com', 'NEAR-USDT'));
      vi.spyOn(samples, 'latestSample').mockRejectedValueOnce(new Error('connection reset by 10.0.0.7'));
      const res = await processPnl({ email: 'boom@example.com', ticker: 'NEAR-USDT', exchange: 'binance' }).expect(500);
      expect(res.body).toEqual({ statusCode: 500, message: 'Failed to process calculator', error: 'Internal Server Error' });
    });
  });

  describe('GET /v1/calculators/stream (rules: calculator, streams)', () => {
    const waitUntil = (check: () => boolean, ms = 5000) => until(check, Boolean, ms, 20);

    it('400 and 404 are JSON answers before any stream opens', async () => {
      const base = `${t.baseUrl}/v1/calculators/stream`;
      const cases: [string, number, string][] = [
        ['', 400, 'email is required'],
        ['?ticker=BTC-USDT&exchange=binance', 400, 'email is required'],
        ['?email=s@example.com&exchange=binance', 400, 'ticker is required'],
        ['?email=s@example.com&ticker=BTC-USDT', 400, 'exchange is required'],
        ['?email=s@example.com&ticker=BTC-USDT&exchange=kraken', 400, 'exchange must be one of binance, bybit, okx, gate, bitget'],
        ['?email=s@example.com&ticker=BTC%2FUSDT&exchange=binance', 400, 'ticker is invalid'],
        ['?email=nobody@example.com&ticker=BTC-USDT&exchange=binance', 404, 'calculator not found'],
      ];
      for (const [query, status, message] of cases) {
        const res = await rawGet(`${base}${query}`, 2000);
        expect(res.status).toBe(status);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(JSON.parse(res.body)).toEqual({ statusCode: status, message, error: status === 400 ? 'Bad Request' : 'Not Found' });
      }
      expect(hub().stats().connections).toBe(0);
    });

    it('opens with the API contract headers and sends one PNL event per second, matching a hand calculation', async () => {
      await save(position('s1@example.com', 'BNB-USDT', { entrySpotValue: 600, entryShortValue: 603, entrySpotQty: 2, entryFuturesQty: 1 }));
      const sampledAt = await record('BNB-USDT', 'binance', { spotBid: 610, futuresAsk: 611, fundingRate: -0.0003 }, 1000);
      const raw = await rawGet(`${t.baseUrl}/v1/calculators/stream?email=s1@example.com&ticker=BNBUSDT&exchange=binance`, 300);
      expect(raw.status).toBe(200);
      expect(raw.headers['content-type']).toBe('text/event-stream');
      expect(raw.headers['cache-control']).toBe('no-cache');
      expect(raw.headers['connection']).toBe('keep-alive');
      expect(raw.headers['x-accel-buffering']).toBe('no');
      expect(raw.body).toMatch(/^data: \{.*\}\n\n/);

      const client = stream({ email: 's1@example.com', ticker: 'BNB-USDT', exchange: 'binance' });
      const events = await client.waitFor(4, 6000);
      // spot (610 − 600) × 2 = 20; futures (603 − 611) × 1 = −8; pnl 12; total 1200 + 603 = 1803
      expect(client.json<Pnl>(0)).toEqual({
        email: 's1@example.com',
        ticker: 'BNB-USDT',
        exchange: 'binance',
        entrySpotValue: 600,
        entryShortValue: 603,
        entrySpotQty: 2,
        entryFuturesQty: 1,
        entrySpread: 3,
        entrySpreadPercentage: 0.5,
        currentSpotPrice: 610,
        currentFuturePrice: 611,
        currentSpread: 1,
        currentSpreadPercentage: 0.16393443, // 1 ÷ 610 × 100
        fundingRate: -0.0003,
        pnl: 12,
        pnlPercentage: 0.6655574, // 12 ÷ 1803 × 100
        isProfitable: true,
        marketDataAt: sampledAt.toISOString(),
      });
      expect(events.every((e) => e.type === 'message')).toBe(true);
      const gaps = events.slice(2).map((e, i) => e.at - (events[i + 1]?.at ?? 0));
      for (const gap of gaps) {
        expect(gap).toBeGreaterThan(700);
        expect(gap).toBeLessThan(1400);
      }
    });

    it('market-data-missing events each second while data is missing, PNL once it returns; the stream stays open', async () => {
      await save(position('s2@example.com', 'APT-USDT'));
      const client = stream({ email: 's2@example.com', ticker: 'APT-USDT', exchange: 'bybit' });
      await client.waitFor(2, 4000);
      expect(client.events.map((e) => [e.type, e.data])).toEqual([
        [MISSING, '{"message":"market data not found"}'],
        [MISSING, '{"message":"market data not found"}'],
      ]);
      await record('APT-USDT', 'bybit', { spotBid: 101, futuresAsk: 109 });
      await waitUntil(() => client.events.some((e) => e.type === 'message'), STREAM_CACHE_MS + 2500);
      const pnl = JSON.parse(client.events.find((e) => e.type === 'message')?.data ?? '{}');
      expect(pnl).toMatchObject({ currentSpotPrice: 101, currentFuturePrice: 109, pnl: 2 }); // +1 and +1
      expect(client.source.readyState).toBe(1);
    });

    it('switches to market-data-missing when the data ages out, and back', async () => {
      await save(position('s3@example.com', 'ARB-USDT'));
      // Fresh for about 2 more seconds only.
      await record('ARB-USDT', 'okx', { spotBid: 1, futuresAsk: 1.1 }, MAX_AGE_MS - 2000);
      const client = stream({ email: 's3@example.com', ticker: 'ARB-USDT', exchange: 'okx' });
      await client.waitFor(1, 3000);
      expect(client.events[0]?.type).toBe('message');
      await waitUntil(() => client.events.some((e) => e.type === MISSING), 5000);
      await record('ARB-USDT', 'okx', { spotBid: 1.2, futuresAsk: 1.1 });
      await waitUntil(() => client.events.at(-1)?.type === 'message', STREAM_CACHE_MS + 2500);
      expect(JSON.parse(client.events.at(-1)?.data ?? '{}').currentSpotPrice).toBe(1.2);
    });

    it('market data behind the events is cached for the stream window', async () => {
      await save(position('s4@example.com', 'OP-USDT'));
      await record('OP-USDT', 'gate', { spotBid: 2, futuresAsk: 2.2 }, 1000);
      const client = stream({ email: 's4@example.com', ticker: 'OP-USDT', exchange: 'gate' });
      await client.waitFor(1, 3000);
      const readAt = Date.now();
      await record('OP-USDT', 'gate', { spotBid: 3, futuresAsk: 3.3 });
      await waitUntil(() => JSON.parse(client.events.at(-1)?.data ?? '{}').currentSpotPrice === 3, STREAM_CACHE_MS + 2500);
      const first3 = client.events.find((e) => JSON.parse(e.data).currentSpotPrice === 3);
      // Never before the window has passed since the first read…
      expect((first3?.at ?? 0) - readAt).toBeGreaterThanOrEqual(STREAM_CACHE_MS - 1100);
      // …and events kept coming with the cached price meanwhile.
      expect(client.events.filter((e) => JSON.parse(e.data).currentSpotPrice === 2).length).toBeGreaterThanOrEqual(2);
    });

    it('clients of one (email, ticker, exchange) share one upstream and get the same bytes', async () => {
      await save(position('s5@example.com', 'SUI-USDT'));
      await record('SUI-USDT', 'binance', { spotBid: 3, futuresAsk: 3.01 }, 1000);
      const spy = vi.spyOn(samples, 'latestSample');
      const query = { email: 's5@example.com', ticker: 'SUI-USDT', exchange: 'binance' };
      const a = stream(query);
      const b = stream(query);
      await Promise.all([a.waitFor(3, 5000), b.waitFor(3, 5000)]);
      expect(streams().activeStreams).toBe(1);
      expect(a.events.slice(-2).map((e) => e.data)).toEqual(b.events.slice(-2).map((e) => e.data));
      // One read per stream-cache window, not one per client per second.
      expect(spy.mock.calls.filter(([ticker]) => ticker === 'SUI-USDT').length).toBeLessThanOrEqual(2);
    });

    it('follows a save of the entry at once', async () => {
      await save(position('s6@example.com', 'TON-USDT', { entrySpotQty: 1 }));
      await record('TON-USDT', 'binance', { spotBid: 110, futuresAsk: 110 }, 1000);
      const client = stream({ email: 's6@example.com', ticker: 'TON-USDT', exchange: 'binance' });
      await client.waitFor(1, 3000);
      expect(client.json<Pnl>(0).pnl).toBe(10); // (110 − 100) × 1 + (110 − 110) × 1
      await save(position('s6@example.com', 'TON-USDT', { entrySpotQty: 3 }));
      await waitUntil(() => JSON.parse(client.events.at(-1)?.data ?? '{}').pnl === 30, 2000);
    });

    it('all work stops when the last client disconnects', async () => {
      await save(position('s7@example.com', 'DOGE-USDT'));
      await record('DOGE-USDT', 'binance', { spotBid: 0.2, futuresAsk: 0.21 }, 1000);
      const client = stream({ email: 's7@example.com', ticker: 'DOGE-USDT', exchange: 'binance' });
      await client.waitFor(1, 3000);
      expect(streams().activeStreams).toBe(1);
      const spy = vi.spyOn(samples, 'latestSample');
      client.close();
      await waitUntil(() => hub().stats().connections === 0 && streams().activeStreams === 0);
      const reads = spy.mock.calls.length;
      await sleep(STREAM_CACHE_MS + 1200); // time: no read may happen for a whole cache window after the last client
      expect(spy.mock.calls.length).toBe(reads);
    });

    it('deleting the entry ends its open streams', async () => {
      const { body } = await save(position('s8@example.com', 'SHIB-USDT'));
      const client = stream({ email: 's8@example.com', ticker: 'SHIB-USDT', exchange: 'binance' });
      await client.waitFor(1, 3000);
      await request(t.baseUrl).delete(`/v1/calculators/${body.id}`).query({ email: 's8@example.com' }).expect(204);
      await waitUntil(() => streams().activeStreams === 0 && hub().stats().connections === 0);
    });
  });

  it('is documented in Swagger, the stream as text/event-stream', async () => {
    const doc = (await request(t.baseUrl).get('/docs-json').expect(200)).body;
    expect(Object.keys(doc.paths['/v1/calculators'])).toEqual(expect.arrayContaining(['post', 'get']));
    expect(doc.paths['/v1/calculators/process'].post.responses['404']).toBeDefined();
    expect(doc.paths['/v1/calculators/stream'].get.responses['200'].content).toHaveProperty('text/event-stream');
    expect(doc.paths['/v1/calculators/{id}'].delete.responses['204']).toBeDefined();
  });
});
