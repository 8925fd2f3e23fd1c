import { createContext, useContext } from 'react';

/**
 * Whether the view a component sits in is the one on screen. Views stay mounted while hidden;
 * a card that also lives elsewhere (a server's request in the chat, the Tools view and the
 * Requests view) renders only where the person is looking, so one answer has one place.
 */
export const ViewActiveContext = createContext(true);

/** True when this component's view is shown (true outside any view). */
export function useViewActive(): boolean {
  return useContext(ViewActiveContext);
}
