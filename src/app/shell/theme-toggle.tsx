/** The theme picker in the header: the system's, light or dark (src/app/lib/theme.ts). */
import { useStore } from 'zustand'
import { themeStore, type ThemeChoice } from '../lib/theme.ts'

const choices: [ThemeChoice, string][] = [['system', 'System'], ['light', 'Light'], ['dark', 'Dark']]

export function ThemeToggle() {
  const choice = useStore(themeStore, (s) => s.choice)
  return (
    <div className="theme-toggle" role="radiogroup" aria-label="Theme">
      {choices.map(([value, label]) => (
        <button key={value} type="button" role="radio" aria-checked={choice === value} className={choice === value ? 'active' : undefined}
          onClick={() => themeStore.getState().set(value)}>{label}</button>
      ))}
    </div>
  )
}
