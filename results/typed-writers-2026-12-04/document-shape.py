#!/usr/bin/env python3
# usage: document-shape.py BEFORE.json AFTER.json: every path of options, working_set, scope, build, sweep and
# each row's parameters, with the JSON types found there; prints the paths whose types differ.
import json, sys


def t(v):
    if isinstance(v,bool): return 'bool'
    if isinstance(v,int): return 'int'
    if isinstance(v,float): return 'float'
    if isinstance(v,str): return 'str'
    if v is None: return 'null'
    if isinstance(v,list): return 'list'
    return 'obj'
def shape(v, path, out):
    out.setdefault(path,set()).add(t(v))
    if isinstance(v,dict):
        for k,x in v.items(): shape(x, path+'.'+k, out)
    elif isinstance(v,list):
        for x in v: shape(x, path+'[]', out)
def doc_shape(d):
    out={}
    for sec in ('options','working_set','scope','build','sweep'):
        if sec in d: shape(d[sec], sec, out)
    for r in d['rows']:
        s={}; shape(r.get('parameters'), 'rows['+r['id']+'].parameters', s)
        for k,v in s.items(): out.setdefault(k,set()).update(v)
    return out
a=doc_shape(json.load(open(sys.argv[1]))); b=doc_shape(json.load(open(sys.argv[2])))
diff=[(k,a.get(k),b.get(k)) for k in sorted(set(a)|set(b)) if a.get(k)!=b.get(k)]
for x in diff[:20]: print(x)
print(sys.argv[1].split('/')[-1], len(a),'paths;', len(diff),'differ')
