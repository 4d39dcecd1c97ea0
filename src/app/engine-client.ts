/** The one place the app constructs the engine worker client (the worker itself starts on the first request). */
import { createEngineClient } from '../engine/worker/client.ts'

export const engineClient = createEngineClient()
