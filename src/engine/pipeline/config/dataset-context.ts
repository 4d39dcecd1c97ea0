/**
 * What `checkConfig` needs to know about an opened dataset (src/engine/pipeline/config/validate-config.ts).
 */
import { compareUtf8 } from '../../core/findings.ts'
import type { Dataset } from '../../dataset/dataset.ts'
import type { ConfigCheckContext, ConfigPartitionInfo } from './check-context.ts'

/**
 * The dataset's partition folders (first file of each, in sorted path order; folders without all three keys
 * `split`, `language`, `corpus` are left out: discovery already reports them), the summary TSV rows in effect,
 * and the distinct `version` key values.
 */
export function configCheckContext(dataset: Pick<Dataset, 'files' | 'summary'>): ConfigCheckContext {
  const seen = new Set<string>()
  const partitions: ConfigPartitionInfo[] = []
  for (const f of [...dataset.files].sort((a, b) => compareUtf8(a.path, b.path))) {
    const { split, language, corpus } = f.keys
    if (split === undefined || language === undefined || corpus === undefined || seen.has(f.partition)) continue
    seen.add(f.partition)
    partitions.push({ corpus, language, split, keys: { ...f.keys } })
  }
  const versions = [...new Set(dataset.files.map((f) => f.keys.version).filter((v): v is string => v !== undefined))].sort(compareUtf8)
  return { partitions, summaryRows: dataset.summary ? dataset.summary.rows : null, versions }
}
