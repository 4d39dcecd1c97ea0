/** Mounts the app. */
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app.tsx'
import './styles.css'

const container = document.getElementById('root')
if (!container) throw new Error('app: index.html has no #root element')
createRoot(container).render(<StrictMode><App /></StrictMode>)
