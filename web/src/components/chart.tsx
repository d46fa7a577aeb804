import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { saoPauloDayLabel, saoPauloDayTicks } from '../lib/format';

export interface ChartSeries {
  label: string;
  color: string;
  points?: boolean;
  /** Drawn as steps: each value holds until the next x (recorded samples). */
  stepped?: boolean;
}

interface Props {
  title: string;
  /** x values in Unix seconds, then one array per series (null: no value). */
  data: [number[], ...(number | null)[][]];
  series: ChartSeries[];
  height?: number;
  /** x values are São Paulo days (at their noon): one tick and label per day, not clock times. */
  days?: boolean;
}

/** A label needs about this many pixels: fewer days than that are labelled, every n-th day beyond. */
const DAY_LABEL_PX = 64;
const HALF_DAY_S = 43_200;
const HOUR_S = 3600;

/** A uPlot time-series chart, rebuilt when its data changes. */
export function Chart({ title, data, series, height = 240, days = false }: Props) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return undefined;
    const plot = new uPlot(
      {
        title,
        width: Math.max(320, el.clientWidth),
        height,
        // One point alone would stretch the time axis over years: show an hour either side (half a day for days,
        // which also keeps the first and last day's points off the edges).
        scales: { x: { time: true, range: (_u, min, max) => (days ? [min - HALF_DAY_S, max + HALF_DAY_S] : min === max ? [min - HOUR_S, max + HOUR_S] : [min, max]) } },
        axes: days ? [dayAxis(), {}] : undefined,
        // A line needs two points: a lone point is drawn as a dot.
        series: [{}, ...series.map((s) => ({
          label: s.label, stroke: s.color, width: 2, points: { show: (s.points ?? false) || data[0].length < 2 },
          ...(s.stepped ? { paths: uPlot.paths.stepped?.({ align: 1 }) } : {}),
        }))],
      },
      data,
      el,
    );
    // uPlot spreads a single x value over years whatever the range callback says: set the hour either side here.
    const [first] = data[0];
    const pad = days ? HALF_DAY_S : HOUR_S;
    if (first !== undefined && data[0].every((x) => x === first)) plot.setScale('x', { min: first - pad, max: first + pad });
    return () => plot.destroy();
  }, [data, series, title, height, days]);
  return <div class="chart" ref={box} data-testid="chart" />;
}

/** uPlot's time axis picks clock-time steps (minutes for one day) in the browser's zone: day ticks in São Paulo instead. */
function dayAxis(): uPlot.Axis {
  return {
    splits: (u, _axis, min, max) => saoPauloDayTicks(min, max, Math.floor(u.bbox.width / devicePixelRatio / DAY_LABEL_PX)),
    values: (_u, splits) => splits.map((s) => saoPauloDayLabel(s)),
  };
}
