/**
 * A Blob URL for text (`null` for empty text). A replaced URL is revoked a minute later, so a download that just
 * started from it still completes.
 */
import { useEffect, useMemo } from 'react'

export function useBlobUrl(text: string, type: string): string | null {
  const url = useMemo(() => (text === '' ? null : URL.createObjectURL(new Blob([text], { type }))), [text, type])
  useEffect(() => () => {
    if (url) setTimeout(() => URL.revokeObjectURL(url), 60_000)
  }, [url])
  return url
}
