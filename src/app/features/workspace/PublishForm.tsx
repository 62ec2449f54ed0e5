// The publish form's fields: the queue's name, how many people per row on what share, who labels, how long a row
// stays reserved, and the button that publishes.
import { plural } from '../../../contract/text';
import type { Person } from '../../../contract/workspace';
import type { PublishFields } from './usePublishQueue';
import { WhoLabelsFieldset } from './WhoLabelsFieldset';
import { QueueOrderFields } from './QueueOrderFields';
import type { Questions } from '../../../contract';

export interface PublishFormProps {
  fields: PublishFields;
  questions: Questions;
  labellers: readonly Person[];
  /** The run's file name, the queue's name when none is given. */
  fileName: string;
  rows: number;
  disabled: boolean;
  onSubmit: () => void;
}

export function PublishForm({
  fields: f,
  questions,
  labellers,
  fileName,
  rows,
  disabled,
  onSubmit,
}: PublishFormProps) {
  return (
    <form
      className="workspace-form"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <label>
        Queue name{' '}
        <input
          value={f.name}
          placeholder={fileName}
          maxLength={80}
          onChange={(e) => f.setName(e.currentTarget.value)}
          data-testid="workspace.publish.name"
        />
      </label>
      <OverlapFields fields={f} />
      <WhoLabelsFieldset
        anyone={f.anyone}
        setAnyone={f.setAnyone}
        assigned={f.assigned}
        setAssigned={f.setAssigned}
        labellers={labellers}
      />
      <QueueOrderFields questions={questions} rows={rows} order={f.order} setOrder={f.setOrder} />
      <label>
        A row stays reserved for whoever has it for{' '}
        <input
          value={f.reservation}
          inputMode="numeric"
          size={4}
          onChange={(e) => f.setReservation(e.currentTarget.value)}
          data-testid="workspace.publish.reservation"
        />{' '}
        minutes
      </label>
      <button type="submit" disabled={disabled} data-testid="workspace.publish.button">
        Publish {plural(rows, 'row')}
      </button>
    </form>
  );
}

/** How many people label each row, and on what share of the rows. */
function OverlapFields({ fields: f }: { fields: PublishFields }) {
  return (
    <>
      <label>
        People per row{' '}
        <select
          value={f.perRow}
          onChange={(e) => f.setPerRow(e.currentTarget.value)}
          data-testid="workspace.publish.perRow"
        >
          {['1', '2', '3', '4', '5'].map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
          <option value="everyone">everyone</option>
        </select>
      </label>
      <label>
        on this share of the rows (the rest get one person){' '}
        <input
          value={f.share}
          inputMode="decimal"
          size={5}
          onChange={(e) => f.setShare(e.currentTarget.value)}
          data-testid="workspace.publish.share"
        />
      </label>
    </>
  );
}
