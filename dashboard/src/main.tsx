// The dashboard's entry: mounts the app. Styles come from a file (the pages' CSP allows no inline style sheets).
import { render } from 'preact';
import { App } from './app.js';
import './styles.css';

render(<App />, document.getElementById('app')!);
