import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  color: string;
  points?: boolean;
}

interface Props {
  title: string;
  /** x values in Unix seconds, then one array per series (null: no value). */
  data: [number[], ...(number | null)[][]];
  series: ChartSeries[];
  height?: number;
}

/** A uPlot time-series chart, rebuilt when its data changes. */
export function Chart({ title, data, series, height = 240 }: Props) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return undefined;
    const plot = new uPlot(
      {
        title,
        width: Math.max(320, el.clientWidth),
        height,
        // One point alone would stretch the time axis over years: show an hour either side.
        scales: { x: { time: true, range: (_u, min, max) => (min === max ? [min - 3600, max + 3600] : [min, max]) } },
        // A line needs two points: a lone point is drawn as a dot.
        series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, points: { show: (s.points ?? false) || data[0].length < 2 } }))],
      },
      data,
      el,
    );
    // uPlot spreads a single x value over years whatever the range callback says: set the hour either side here.
    const [first] = data[0];
    if (first !== undefined && data[0].every((x) => x === first)) plot.setScale('x', { min: first - 3600, max: first + 3600 });
    return () => plot.destroy();
  }, [data, series, title, height]);
  return <div class="chart" ref={box} data-testid="chart" />;
}
