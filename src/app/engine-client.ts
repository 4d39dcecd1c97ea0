/**
 * The one place the app constructs the engine worker client (the worker itself starts on the first request). Every
 * call through it is counted for the status bar from the first one on (activity.ts), the open that start.ts begins
 * before the views have loaded included.
 */
import { createEngineClient } from '../engine/worker/client.ts'
import { instrumentClient } from './features/status/activity.ts'

export const engineClient = createEngineClient()
instrumentClient(engineClient)
