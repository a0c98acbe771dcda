import './lib/zod-jitless';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ToastProvider } from './components/ui/toast';
import { UpdatePrompt } from './components/update-prompt';
import { queryClient, TRPCProvider, trpcClient } from './lib/trpc';
import { registerServiceWorker } from './lib/pwa/register';
import { preloadCurrentPage } from './preload';
import { AppRoutes } from './routes';
import './styles.css';

preloadCurrentPage(window.location.pathname, window.location.search);

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <ToastProvider>
          <AppRoutes />
          <UpdatePrompt />
        </ToastProvider>
      </TRPCProvider>
    </QueryClientProvider>
  </StrictMode>,
);

registerServiceWorker();
