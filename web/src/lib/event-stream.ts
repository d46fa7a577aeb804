import { useEffect, useRef, useState } from 'preact/hooks';
import { INITIAL_STREAM_STATE, type StreamState, watchStream } from './stream-watch';
import { readToken } from './token';

export type { StreamState } from './stream-watch';

/** A surviving EventSource (see watchStream) bound to a component; `onData` gets each message's data and id. */
export function useEventStream(url: string | null, onData: (data: string, id: string) => void): StreamState {
  const [state, setState] = useState<StreamState>(INITIAL_STREAM_STATE);
  const handler = useRef(onData);
  handler.current = onData;
  useEffect(() => {
    if (url === null) return undefined;
    setState(INITIAL_STREAM_STATE);
    return watchStream(url, (data, id) => handler.current(data, id), setState, readToken());
  }, [url]);
  return state;
}
