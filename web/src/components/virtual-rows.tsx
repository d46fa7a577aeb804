import type { ComponentChildren } from 'preact';

interface Props {
  total: number;
  rowHeight: number;
  height: number;
  header: ComponentChildren;
  /** The row at an index, or null while it is not loaded. */
  row: (index: number) => ComponentChildren | null;
  first: number;
  onScrollTop: (top: number) => void;
}

export const OVERSCAN = 8;

/** The rows a scroll position shows, with some overscan either side. */
export function rangeAt(top: number, rowHeight: number, height: number, total: number): { first: number; count: number } {
  const first = Math.max(0, Math.floor(top / rowHeight) - OVERSCAN);
  const last = Math.min(total, Math.ceil((top + height) / rowHeight) + OVERSCAN);
  return { first, count: Math.max(0, last - first) + OVERSCAN };
}

/**
 * Renders only the rows in view (fixed row height): thousands of rows cost what forty do. Rows are
 * absolutely placed grid rows inside a spacer as tall as all of them.
 */
export function VirtualRows({ total, rowHeight, height, header, row, first, onScrollTop }: Props) {
  const last = Math.min(total, first + Math.ceil(height / rowHeight) + 3 * OVERSCAN);
  const indexes = Array.from({ length: Math.max(0, last - first) }, (_, i) => first + i);
  return (
    <div class="vtable">
      <div class="vrow vhead">{header}</div>
      <div class="vscroll" style={{ height: `${height}px` }} onScroll={(e) => onScrollTop(e.currentTarget.scrollTop)} data-testid="virtual-scroll">
        <div style={{ height: `${total * rowHeight}px`, position: 'relative' }}>
          {indexes.map((i) => {
            const content = row(i);
            return content === null ? null : (
              <div class="vrow" key={i} style={{ position: 'absolute', top: `${i * rowHeight}px`, height: `${rowHeight}px` }}>
                {content}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
