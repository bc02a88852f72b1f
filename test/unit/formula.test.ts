// The calculated-column formula language (src/domain/formula/, src/domain/calculated.ts):
// Excel's precedence and coercions, the functions spemu evaluates, TEXT's formats, errors as
// values, and the checks a formula passes when a column is made.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { calculatedValues, checkFormula } from '../../src/domain/calculated.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { evaluateFormula } from '../../src/domain/formula/evaluate.ts';
import { parseFormula } from '../../src/domain/formula/parse.ts';
import { FormulaErrorValue, type FormulaValue } from '../../src/domain/formula/values.ts';

const run = (formula: string, refs: Record<string, FormulaValue> = {}): FormulaValue => {
  const v = evaluateFormula(parseFormula(formula), (name) => refs[name] ?? null);
  return v instanceof FormulaErrorValue ? v.text : v;
};

describe('formula evaluation', () => {
  it('follows Excel\'s precedence: comparison < & < + - < * / < ^ < sign', () => {
    assert.equal(run('=1+2*3'), 7);
    assert.equal(run('=(1+2)*3'), 9);
    assert.equal(run('=2^3^2'), 64);
    assert.equal(run('=-2^2'), 4);
    assert.equal(run('=1+2&"x"'), '3x');
    assert.equal(run('=1+1=2'), true);
    assert.equal(run('="a"&1<>"a1"'), false);
  });

  it('coerces as Excel does: blanks are 0 or "", numeric text is a number, text compares without case', () => {
    assert.equal(run('=[A]+1'), 1);
    assert.equal(run('=[A]&"x"'), 'x');
    assert.equal(run('="2"*3'), 6);
    assert.equal(run('="abc"+1'), '#VALUE!');
    assert.equal(run('="ABC"="abc"'), true);
    assert.equal(run('=TRUE+1'), 2);
    assert.equal(run('=1/0'), '#DIV/0!');
    assert.equal(run('=IF(1/0>1,"a","b")'), '#DIV/0!');
  });

  it('IF takes only its branch; AND, OR, NOT, ISBLANK', () => {
    assert.equal(run('=IF(TRUE,"y",1/0)'), 'y');
    assert.equal(run('=IF(FALSE,1)'), false);
    assert.equal(run('=AND(1,TRUE,[X]>0)', { X: 2 }), true);
    assert.equal(run('=OR(FALSE,0)'), false);
    assert.equal(run('=NOT([X])', { X: 0 }), true);
    assert.equal(run('=ISBLANK([Nothing])'), true);
  });

  it('text functions', () => {
    assert.equal(run('=CONCATENATE("a",1,TRUE)'), 'a1TRUE');
    assert.equal(run('=LEFT("spemu",2)&RIGHT("spemu")&MID("spemu",2,3)'), 'spupem');
    assert.equal(run('=LEN(TRIM("  a   b  "))'), 3);
    assert.equal(run('=UPPER("a")&LOWER("B")'), 'Ab');
  });

  it('number functions round half away from zero', () => {
    assert.equal(run('=ROUND(2.5,0)'), 3);
    assert.equal(run('=ROUND(-2.5,0)'), -3);
    assert.equal(run('=ROUND(1.005,2)'), 1.01);
    assert.equal(run('=ROUNDUP(1.21,1)'), 1.3);
    assert.equal(run('=ROUNDDOWN(-1.29,1)'), -1.2);
    assert.equal(run('=INT(-1.5)'), -2);
    assert.equal(run('=ABS(-3)+MOD(-3,2)'), 4);
  });

  it('dates are serial days: DATE, YEAR, MONTH, DAY, date + number', () => {
    assert.equal(run('=DATE(2024,1,1)'), 45292);
    assert.equal(run('=YEAR(DATE(2024,2,29)+1)&"-"&MONTH(DATE(2024,2,29)+1)&"-"&DAY(DATE(2024,2,29)+1)'), '2024-3-1');
    assert.equal(run('=DATE(2024,13,1)=DATE(2025,1,1)'), true);
  });

  it('TEXT with the number and date formats provisioning uses', () => {
    assert.equal(run('=TEXT(1234.567,"0")'), '1235');
    assert.equal(run('=TEXT(1234.567,"0.00")'), '1234.57');
    assert.equal(run('=TEXT(1234567.891,"#,##0")'), '1,234,568');
    assert.equal(run('=TEXT(0.256,"0%")'), '26%');
    assert.equal(run('=TEXT(DATE(2024,7,4),"yyyy-mm-dd")'), '2024-07-04');
    assert.equal(run('=TEXT(DATE(2024,7,4),"dd/mm/yyyy")'), '04/07/2024');
    assert.equal(run('=TEXT(DATE(2024,7,4),"mmmm")'), 'July');
  });
});

describe('formula checks when a column is made', () => {
  const fields = [
    { internalName: 'Cost', title: 'Unit Cost', kind: 'Number' as const },
    { internalName: 'Notes', title: 'Notes', kind: 'Note' as const },
    { internalName: 'Modified', title: 'Modified', kind: 'DateTime' as const },
  ];
  const refused = (formula: string): string => {
    try { checkFormula(formula, fields); } catch (e) { assert.ok(e instanceof DomainError); return e.message; }
    return 'accepted';
  };

  it('accepts display names in brackets and bare internal names; stores a leading =', () => {
    assert.equal(checkFormula('[Unit Cost]*2+Cost', fields), '=[Unit Cost]*2+Cost');
    assert.equal(checkFormula('=Modified+1', fields), '=Modified+1');
  });

  it('refuses with SharePoint\'s messages', () => {
    assert.match(refused('=TODAY()'), /volatile functions like Today and Me/);
    assert.match(refused('=[Me]'), /volatile functions/);
    assert.match(refused('=[Notes]'), /not supported in formulas/);
    assert.match(refused('=[Price]'), /refers to a column that does not exist/);
    assert.match(refused('=1+'), /syntax error or is not supported/);
    assert.match(refused('=LEFT()'), /syntax error or is not supported/);
    assert.match(refused('="unterminated'), /syntax error/);
    assert.match(refused(''), /syntax error/);
  });

  it('stores results typed by the output type; errors as text in a Text column, empty in a typed one', () => {
    const calc = (formula: string, outputType: 'Text' | 'Number' | 'DateTime' | 'Boolean', dateOnly = false) => ({
      internalName: 'C', title: 'C', kind: 'Calculated' as const, options: { formula, outputType, dateOnly },
    });
    const values = { Cost: 2.5, Modified: '2024-05-06T13:30:00Z' };
    const value = (f: ReturnType<typeof calc>) => calculatedValues([...fields.map((x) => ({ ...x, options: {} })), f], values).C;
    assert.equal(value(calc('=Cost*2', 'Number')), 5);
    assert.equal(value(calc('=Cost*2', 'Text')), '5');
    assert.equal(value(calc('=Cost>2', 'Boolean')), 1);
    assert.equal(value(calc('=Modified+1', 'DateTime')), '2024-05-07T13:30:00Z');
    assert.equal(value(calc('=Modified+1', 'DateTime', true)), '2024-05-07T00:00:00Z');
    assert.equal(value(calc('="x"+1', 'Text')), '#VALUE!');
    assert.equal(value(calc('="x"+1', 'Number')), null);
  });
});
