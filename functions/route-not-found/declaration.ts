import { handlerBeside } from '../../shared/core/function-declaration.ts';

/** Answers every request that matches no route (404, or 405 when the path exists with another method). */
export const declaration = { operation: 'route_not_found', entry: handlerBeside(import.meta.url) } as const;
