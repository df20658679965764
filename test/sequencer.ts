import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Alphabetical order, with the reset test last: it wipes the state the others use. */
export default class ResetLastSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const key = (f: TestSpecification) => `${f.moduleId.includes('reset.e2e') ? '1' : '0'}${f.moduleId}`;
    return [...files].sort((a, b) => key(a).localeCompare(key(b)));
  }
}
