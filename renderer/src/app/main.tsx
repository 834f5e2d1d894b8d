import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@xyflow/react/dist/style.css';
import '../styles.css';
import { App } from './App.tsx';
import { connectPageHost } from '../../../engine/host/browser/page-host.ts';
import { attachHost } from '../host.ts';
import { boot } from './boot.ts';

const root = createRoot(document.getElementById('root')!);

function Failure({ message }: { message: string }) {
  return (
    <div className="boot-failure" data-testid="boot-failure">
      <h1>Weir cannot reach its engine</h1>
      <p>{message}</p>
      <p>
        Start it with <code>weir serve</code> and open the address it prints (it carries the access token).
      </p>
    </div>
  );
}

connectPageHost()
  .then(attachHost)
  .then(async (h) => {
    await boot(h);
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  })
  .catch((e: unknown) => {
    root.render(<Failure message={String((e as Error)?.message ?? e)} />);
  });
