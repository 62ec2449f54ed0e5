// Above the problems list when the questions editor holds a whole request written for the gateway (`boolean` types, a
// gateway model id, fields the service does not define): what is wrong, and the rewrite to the direct form in one click.
import { useMemo } from 'react';
import type { SessionDoc } from '../../../core/session';
import { docWithRequest, gatewayOffer } from './requestDoc';
import './lint.css';

export interface GatewayOfferProps {
  /** The questions editor's content, parsed (undefined while it does not parse). */
  questions: unknown;
  /** Applies a new document to the editors. */
  onApply: (edit: (doc: SessionDoc) => SessionDoc) => void;
}

/** The offer, or nothing when the questions editor holds no gateway request. */
export function GatewayOffer({ questions, onApply }: GatewayOfferProps) {
  const offer = useMemo(() => gatewayOffer(questions), [questions]);
  if (!offer) return null;
  return (
    <section className="gateway-offer" aria-label="Gateway request" data-testid="lint.gateway">
      <p className="gateway-offer__title">
        <strong>This request is written for the gateway.</strong> The direct service would reject or misread
        it:
      </p>
      <ul data-testid="lint.gatewayProblems">
        {offer.problems.map((p) => (
          <li key={p}>{p}</li>
        ))}
      </ul>
      <button
        type="button"
        className="primary"
        onClick={() => onApply((doc) => docWithRequest(doc, offer.body))}
        data-testid="lint.gatewayRewrite"
      >
        Rewrite to the direct form
      </button>
      <span className="muted"> Questions stay here, the state and the model move to their own places.</span>
    </section>
  );
}
