import { test } from 'node:test';
import assert from 'node:assert/strict';
import { associationName, builtInSet, ENTITY_SETS, onPremisesPageSize } from '../../src/domain/projectdata/catalogue.ts';
import type { PdEntitySet, PdProperty } from '../../src/domain/projectdata/model.ts';

// The 36 sets of Project's reporting feed (wire reference §11, Microsoft's jj163015 list plus Online's engagements).
const REFERENCE_SETS = [
  'AssignmentBaselines', 'AssignmentBaselineTimephasedDataSet', 'Assignments', 'AssignmentTimephasedDataSet',
  'BusinessDriverDepartments', 'BusinessDrivers', 'CostConstraintScenarios', 'CostScenarioProjects', 'Deliverables',
  'EngagementsTimephasedDataSet', 'Issues', 'IssueTaskAssociations', 'PortfolioAnalyses', 'PortfolioAnalysisProjects',
  'PrioritizationDriverRelations', 'PrioritizationDrivers', 'Prioritizations', 'ProjectBaselines', 'Projects',
  'ProjectWorkflowStageDataSet', 'ResourceConstraintScenarios', 'Resources', 'ResourceScenarioProjects',
  'ResourceTimephasedDataSet', 'Risks', 'RiskTaskAssociations', 'TaskBaselines', 'TaskBaselineTimephasedDataSet', 'Tasks',
  'TaskTimephasedDataSet', 'TimeSet', 'TimesheetClasses', 'TimesheetLineActualDataSet', 'TimesheetLines',
  'TimesheetPeriods', 'Timesheets',
];

const bySet = new Map(ENTITY_SETS.map((s) => [s.name, s]));
const prop = (set: string, name: string) => bySet.get(set)?.properties.find((p) => p.name === name);

test('all 36 reference sets are present, and nothing else', () => {
  assert.equal(REFERENCE_SETS.length, 36);
  assert.deepEqual([...bySet.keys()].sort(), [...REFERENCE_SETS].sort());
  for (const name of REFERENCE_SETS) assert.equal(builtInSet(name)?.name, name);
  assert.equal(builtInSet('tasks'), undefined, 'names are case-sensitive');
});

test('set names and entity type names are unique; the service document starts with Projects, ProjectBaselines', () => {
  assert.equal(new Set(ENTITY_SETS.map((s) => s.name)).size, ENTITY_SETS.length);
  assert.equal(new Set(ENTITY_SETS.map((s) => s.entityType)).size, ENTITY_SETS.length);
  assert.deepEqual(ENTITY_SETS.slice(0, 2).map((s) => s.name), ['Projects', 'ProjectBaselines']);
});

test('property names are unique per set; keys are non-nullable properties, everything else nullable', () => {
  for (const set of ENTITY_SETS) {
    const names = set.properties.map((p) => p.name);
    assert.equal(new Set(names).size, names.length, `${set.name} has a duplicate property`);
    assert.ok(set.key.length > 0, `${set.name} has no key`);
    for (const k of set.key) {
      const p = set.properties.find((q) => q.name === k);
      assert.ok(p, `${set.name}: key ${k} is not a property`);
      assert.equal(p.nullable, false, `${set.name}.${k}`);
    }
    for (const p of set.properties) if (!set.key.includes(p.name)) assert.equal(p.nullable, true, `${set.name}.${p.name}`);
    // WCF DS writes key properties first: the catalogue's declaration order is the wire order.
    assert.deepEqual([...names.slice(0, set.key.length)].sort(), [...set.key].sort(), `${set.name}: keys are declared first`);
    assert.ok(set.properties.every((p) => !p.custom), `${set.name}: built-in properties are not custom`);
    assert.ok(Number.isInteger(set.defaultPageSize) && set.defaultPageSize > 0, set.name);
  }
});

test('navigations: targets exist, join properties exist on both sides with the same type, names are unique', () => {
  for (const set of ENTITY_SETS) {
    const navNames = set.navigations.map((n) => n.name);
    assert.equal(new Set(navNames).size, navNames.length, `${set.name}: duplicate navigation`);
    for (const nav of set.navigations) {
      const where = `${set.name}.${nav.name}`;
      assert.ok(!set.properties.some((p) => p.name === nav.name), `${where} clashes with a property`);
      const target: PdEntitySet | undefined = bySet.get(nav.target);
      assert.ok(target, `${where} → ${nav.target} does not exist`);
      assert.ok(nav.on.length > 0, `${where} has no join`);
      for (const [from, to] of nav.on) {
        const a: PdProperty | undefined = set.properties.find((p) => p.name === from);
        const b: PdProperty | undefined = target.properties.find((p) => p.name === to);
        assert.ok(a, `${where}: ${from} is not a property of ${set.name}`);
        assert.ok(b, `${where}: ${to} is not a property of ${target.name}`);
        assert.equal(a.type, b.type, `${where}: ${from} and ${to} differ in type`);
      }
      // A single-entity navigation must join on the target's whole key, or it could match many rows.
      // (TimesheetLines.TimesheetClass is the one documented exception: the line names the class, not its department.)
      if (!nav.many && where !== 'TimesheetLines.TimesheetClass') {
        assert.deepEqual(nav.on.map(([, to]) => to).sort(), [...target.key].sort(), `${where} does not join on ${target.name}'s key`);
      }
      assert.ok(associationName(set.entityType, nav.name), `${where} has no association name`);
    }
  }
});

test('documented facts: types, key order, navigations, page sizes', () => {
  // Key order follows the reference's <Key> (and a Project Online capture for Assignments).
  assert.deepEqual(builtInSet('Assignments')?.key, ['AssignmentId', 'ProjectId']);
  assert.deepEqual(builtInSet('Tasks')?.key, ['ProjectId', 'TaskId']);
  assert.deepEqual(builtInSet('TaskBaselines')?.key, ['ProjectId', 'TaskId', 'BaselineNumber']);
  assert.deepEqual(builtInSet('TimesheetLineActualDataSet')?.key, ['AdjustmentIndex', 'TimeByDay', 'TimesheetLineId']);
  assert.equal(builtInSet('TimeSet')?.entityType, 'Time');
  assert.equal(builtInSet('TimesheetPeriods')?.entityType, 'TimesheetPeriod');
  assert.equal(prop('TaskBaselines', 'BaselineNumber')?.type, 'Edm.Int32');
  assert.equal(prop('Tasks', 'TaskOutlineLevel')?.type, 'Edm.Int16');
  assert.equal(prop('Tasks', 'TaskFinishDate')?.type, 'Edm.DateTime');
  assert.equal(prop('Tasks', 'TaskBaselineFinishDate')?.type, 'Edm.DateTime', 'kept on Task for the issue fixture');
  assert.equal(prop('Projects', 'ProjectCost')?.type, 'Edm.Decimal');
  assert.equal(prop('Risks', 'Probability')?.type, 'Edm.Double');
  assert.equal(prop('Resources', 'ResourceBookingType')?.type, 'Edm.Byte');
  assert.equal(prop('Assignments', 'AssignmentBookingId')?.type, 'Edm.Int32');
  assert.equal(prop('Tasks', 'Health'), undefined, 'localized enterprise fields are custom, not built in');
  // Navigations: direction and join columns.
  const approver = builtInSet('TimesheetLines')?.navigations.find((n) => n.name === 'ApproverResource');
  assert.deepEqual(approver, { name: 'ApproverResource', target: 'Resources', many: false, on: [['TimesheetApproverResourceId', 'ResourceId']] });
  const taskAssignments = builtInSet('Tasks')?.navigations.find((n) => n.name === 'Assignments');
  assert.deepEqual(taskAssignments?.on, [['ProjectId', 'ProjectId'], ['TaskId', 'TaskId']]);
  assert.equal(builtInSet('Assignments')?.navigations.find((n) => n.name === 'Baseline')?.many, true);
  assert.equal(associationName('Project', 'Tasks'), 'Project_Tasks_Task_Project');
  assert.equal(associationName('Task', 'Project'), 'Project_Tasks_Task_Project');
  // Page sizes: Project Online by default, on-premises on request.
  assert.equal(builtInSet('Projects')?.defaultPageSize, 300);
  assert.equal(builtInSet('Assignments')?.defaultPageSize, 1000);
  assert.equal(onPremisesPageSize('Projects'), 100);
  assert.equal(onPremisesPageSize('Risks'), 200);
  assert.equal(onPremisesPageSize('Nope'), undefined);
});
