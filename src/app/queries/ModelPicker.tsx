// The model picker bound to its target: the list from /v1/models and the model file the target runs, read as server
// state and handed to the picker the page draws (components/ModelPicker.tsx).
import { useQuery } from '@tanstack/react-query';
import { ModelPickerView } from '../components/ModelPicker';
import type { ModelPickerProps } from '../components/ModelPicker';
import { modelsQueryOptions } from './models';
import { targetsQueryOptions } from './targets';

export type { ModelPickerProps };

/** A text field with the target's aliases as suggestions, checked as it is typed. */
export function ModelPicker(props: ModelPickerProps) {
  const models = useQuery(modelsQueryOptions(props.targetId));
  const targets = useQuery(targetsQueryOptions());
  const modelFile = targets.data?.find((t) => t.id === props.targetId)?.modelFile;
  return (
    <ModelPickerView {...props} models={models.data} modelsLoaded={models.isSuccess} modelFile={modelFile} />
  );
}
