import { clock } from '../core/clock.ts';
import { sendMessage } from '../queue/send.ts';
import { tableFlowStore } from '../store/flow-items.ts';
import { EventFlow, type FlowDefinition } from './event-flow.ts';

/** A flow on the table, the queues and the service's clock (the unit tests give it fakes instead). */
export function flowOn<Message>(definition: FlowDefinition<Message>): EventFlow<Message> {
  return new EventFlow(definition, {
    store: tableFlowStore,
    queue: { send: (queue, message, options) => sendMessage(queue, message as never, options) },
    now: () => clock.now(),
  });
}
