/**
 * Handlers of the Prepare view's kinds: `prepare-scan` (read the input folder and plan: what will be written, what
 * skipped and why), `prepare-run` (convert into a folder the user picked or into OPFS; resumable), `prepare-control`
 * (pause, resume, progress), `prepare-zip` (an OPFS result as one zip to download). The work lives in
 * prepare-jobs.ts, loaded on the first prepare request.
 */
import type { HandlerTable } from './handler-types.ts'
import type { PrepareRequests } from './protocol/prepare.ts'

const jobs = () => import('./prepare-jobs.ts')

export const prepareHandlers: HandlerTable<keyof PrepareRequests> = {
  'prepare-scan': async (m, o, c) => (await jobs()).scan(m, o, c),
  'prepare-run': async (m, o, c) => (await jobs()).run(m, o, c),
  'prepare-control': async (m, o, c) => (await jobs()).control(m, o, c),
  'prepare-zip': async (m, o) => (await jobs()).zip(m, o),
}
