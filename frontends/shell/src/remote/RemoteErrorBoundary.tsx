import { Component, type ReactNode } from 'react';
import { Button } from '@ticketing/shared';

interface Props {
  onRetry(): void;
  children: ReactNode;
}

/** Catches a page that failed to download or to render, and offers to try again. */
export class RemoteErrorBoundary extends Component<Props, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="page remote-error" role="alert">
        <h1>Não foi possível carregar esta página</h1>
        <p>Verifique sua conexão com a internet e tente novamente.</p>
        <Button onClick={this.props.onRetry}>Tentar novamente</Button>
      </div>
    );
  }
}
