//! Outline goldens: one representative file per language and the outline
//! TextInspect shows for it.

use super::super::{Language, OutlineItem, outline};

/// One line per item, `kind name first-last`, children indented.
fn render(items: &[OutlineItem]) -> String {
    fn walk(items: &[OutlineItem], depth: usize, out: &mut String) {
        for item in items {
            let kind = serde_json::to_value(item.kind).unwrap();
            out.push_str(&format!(
                "{}{} {} {}-{}\n",
                "  ".repeat(depth),
                kind.as_str().unwrap(),
                item.name,
                item.start_line,
                item.end_line
            ));
            walk(&item.children, depth + 1, out);
        }
    }
    let mut out = String::new();
    walk(items, 0, &mut out);
    out
}

fn golden(language: Language, source: &str, expected: &str) {
    let items = outline(language, source).unwrap();
    // Goldens are written as raw strings starting on their own line.
    let expected = expected.strip_prefix('\n').unwrap_or(expected);
    assert_eq!(render(&items), expected, "{}", language.name());
}

#[test]
fn rust() {
    golden(
        Language::Rust,
        r#"//! Doc.
use std::fmt;

pub const MAX: usize = 3;
static COUNT: u32 = 0;

/// A point.
#[derive(Debug, Clone)]
#[allow(dead_code)]
pub struct Point {
    x: i32,
}

pub enum Shape { Circle, Square }

pub trait Area {
    fn area(&self) -> f64;
    fn name(&self) -> String { String::new() }
    type Output;
}

impl Area for Point {
    type Output = i32;
    fn area(&self) -> f64 { 0.0 }
}

impl<T> Wrapper<T> {
    pub fn new() -> Self { todo!() }
}

mod inner {
    pub fn helper() {}
    mod deeper;
}

macro_rules! square { ($x:expr) => { $x * $x }; }

type Map = std::collections::HashMap<String, u32>;

extern "C" {
    fn abs(x: i32) -> i32;
}

fn main() {
    fn nested() {}
}
"#,
        r#"
const MAX 4-4
static COUNT 5-5
struct Point 8-12
enum Shape 14-14
trait Area 16-20
  method area 17-17
  method name 18-18
  type Output 19-19
impl Area for Point 22-25
  type Output 23-23
  method area 24-24
impl Wrapper<T> 27-29
  method new 28-28
module inner 31-34
  function helper 32-32
  module deeper 33-33
macro square 36-36
type Map 38-38
function abs 41-41
function main 44-46
"#,
    );
}

#[test]
fn python() {
    golden(
        Language::Python,
        r#""""Module."""
import os

MAX_SIZE = 10
default_name = "x"

class Animal(Base):
    """An animal."""
    kind = "generic"

    def __init__(self, name):
        self.name = name

    @property
    def label(self):
        return self.name

    class Meta:
        ordering = ["name"]


@decorator
def top(a, b):
    def inner():
        pass
    return a


async def fetch():
    pass

type Vector = list[float]

if __name__ == "__main__":
    top(1, 2)
"#,
        r#"
const MAX_SIZE 4-4
class Animal 7-19
  method __init__ 11-12
  method label 14-16
  class Meta 18-19
function top 22-26
function fetch 29-30
type Vector 32-32
"#,
    );
}

#[test]
fn go() {
    golden(
        Language::Go,
        r#"package main

import "fmt"

const Pi = 3.14

const (
	A = iota
	B
)

type Server struct {
	name string
}

type Handler interface {
	Handle(x int) error
	Close()
}

type (
	ID    int
	Alias = string
)

func NewServer() *Server {
	return &Server{}
}

func (s *Server) Start() error {
	return nil
}

func (s Server) Name() string { return s.name }

func main() {
	fmt.Println("hi")
}
"#,
        r#"
const Pi 5-5
const A 8-8
const B 9-9
struct Server 12-14
interface Handler 16-19
  method Handle 17-17
  method Close 18-18
type ID 22-22
type Alias 23-23
function NewServer 26-28
method (*Server).Start 30-32
method Server.Name 34-34
function main 36-38
"#,
    );
}

#[test]
fn typescript() {
    golden(
        Language::TypeScript,
        r#"import { x } from "./x";

export const MAX_ITEMS = 5;
const helper = (a: number) => a + 1;
let counter = 0;

export interface Shape {
  area(): number;
  name: string;
}

export type Id = string | number;

export enum Color { Red, Green }

export abstract class Base {
  abstract describe(): string;
}

export class Circle extends Base implements Shape {
  name = "circle";
  constructor(private r: number) { super(); }
  area(): number { return Math.PI * this.r ** 2; }
  get radius() { return this.r; }
  set radius(v: number) { this.r = v; }
  describe = () => `circle ${this.r}`;
}

export default function main(): void {}

namespace Geometry {
  export function distance(a: number, b: number) { return b - a; }
}

declare module "lib" {
  export function f(): void;
}

function* gen() { yield 1; }
"#,
        r#"
const MAX_ITEMS 3-3
function helper 4-4
interface Shape 7-10
  method area 8-8
type Id 12-12
enum Color 14-14
class Base 16-18
  method describe 17-17
class Circle 20-27
  constructor constructor 22-22
  method area 23-23
  method get radius 24-24
  method set radius 25-25
  method describe 26-26
function main 29-29
namespace Geometry 31-33
  function distance 32-32
module lib 35-37
  function f 36-36
function gen 39-39
"#,
    );
}

#[test]
fn javascript() {
    golden(
        Language::JavaScript,
        r#"const express = require("express");
const API_URL = "https://x";

class Store {
  #items = [];
  static create() { return new Store(); }
  add = (item) => { this.#items.push(item); };
  *[Symbol.iterator]() {}
}

export default class extends Store {}

export const makeStore = function () {};

module.exports = { Store };

function handler(req, res) {
  const local = () => 1;
}
"#,
        r#"
const API_URL 2-2
class Store 4-9
  method create 6-6
  method add 7-7
  method [Symbol.iterator] 8-8
class default 11-11
function makeStore 13-13
function handler 17-19
"#,
    );
}

#[test]
fn tsx() {
    golden(
        Language::Tsx,
        r#"import React from "react";

type Props = { title: string };

export function Card({ title }: Props) {
  return <div className="card">{title}</div>;
}

export const List = ({ items }: { items: string[] }) => (
  <ul>{items.map((i) => <li key={i}>{i}</li>)}</ul>
);
"#,
        r#"
type Props 3-3
function Card 5-7
function List 9-11
"#,
    );
}

#[test]
fn java() {
    golden(
        Language::Java,
        r#"package com.example;

import java.util.List;

public class Library {
    private final List<String> books;

    public Library(List<String> books) {
        this.books = books;
    }

    @Override
    public String toString() {
        return "Library";
    }

    static class Entry {
        void touch() {}
    }

    interface Visitor {
        void visit(String book);
    }

    enum Kind {
        FICTION, SCIENCE;

        boolean isFiction() { return this == FICTION; }
    }

    record Pair(String a, String b) {}
}
"#,
        r#"
class Library 5-32
  constructor Library 8-10
  method toString 12-15
  class Entry 17-19
    method touch 18-18
  interface Visitor 21-23
    method visit 22-22
  enum Kind 25-29
    method isFiction 28-28
  class Pair 31-31
"#,
    );
}

#[test]
fn c() {
    golden(
        Language::C,
        r#"#include <stdio.h>
#ifndef A_H
#define A_H
#define SQUARE(x) ((x) * (x))
#define LIMIT 10

struct point {
    int x;
    int y;
};

typedef struct {
    int w, h;
} size;

typedef unsigned long ulong;

enum color { RED, GREEN };

union value { int i; float f; };

static int add(int a, int b);
int (*handler)(int);
char *name_of(int id);

static int add(int a, int b) {
    return a + b;
}

int main(void) {
    return add(1, 2);
}
#endif
"#,
        r#"
macro SQUARE 4-4
struct point 7-10
struct size 12-14
type ulong 16-16
enum color 18-18
union value 20-20
prototype add 22-22
prototype name_of 24-24
function add 26-28
function main 30-32
"#,
    );
}

#[test]
fn cpp() {
    golden(
        Language::Cpp,
        r#"#include <string>

namespace geo {

class Shape {
public:
    Shape();
    virtual ~Shape() = default;
    virtual double area() const = 0;
    int id() const { return id_; }
private:
    int id_;
};

struct Point { int x; int y; };

template <typename T>
T max(T a, T b) { return a > b ? a : b; }

using Id = int;

}  // namespace geo

geo::Shape::Shape() : id_(0) {}

extern "C" {
int c_api(int x);
}

int main() { return 0; }
"#,
        r#"
namespace geo 3-22
  class Shape 5-13
    method Shape 7-7
    method ~Shape 8-8
    method area 9-9
    method id 10-10
  struct Point 15-15
  function max 17-18
  type Id 20-20
method geo::Shape::Shape 24-24
prototype c_api 27-27
function main 30-30
"#,
    );
}

#[test]
fn json() {
    golden(
        Language::Json,
        r#"{
  "name": "demo",
  "version": "1.0.0",
  "scripts": {
    "build": "tsc"
  },
  "files": [
    "dist"
  ]
}
"#,
        r#"
key name 2-2
key version 3-3
key scripts 4-6
key files 7-9
"#,
    );
}

#[test]
fn yaml() {
    golden(
        Language::Yaml,
        r#"name: demo
on:
  push:
    branches: [main]
jobs:
  build:
    runs-on: ubuntu-latest
"quoted key": 1
"#,
        r#"
key name 1-1
key on 2-4
key jobs 5-7
key quoted key 8-8
"#,
    );
}

#[test]
fn yaml_documents() {
    golden(
        Language::Yaml,
        r#"apiVersion: v1
kind: Service
---
apiVersion: apps/v1
kind: Deployment
spec:
  replicas: 2
"#,
        r#"
document document 1 1-2
  key apiVersion 1-1
  key kind 2-2
document document 2 3-7
  key apiVersion 4-4
  key kind 5-5
  key spec 6-7
"#,
    );
}

#[test]
fn toml() {
    golden(
        Language::Toml,
        r#"title = "x"
version = 2

[package]
name = "demo"
edition = "2021"

[dependencies]
serde = "1"

[[bin]]
name = "a"

[profile.release]
lto = true
"#,
        r#"
key title 1-1
key version 2-2
table [package] 4-6
table [dependencies] 8-9
table [[bin]] 11-12
table [profile.release] 14-15
"#,
    );
}

#[test]
fn bash() {
    golden(
        Language::Bash,
        r#"#!/bin/bash
set -e
greet() {
  echo "hi $1"
}
function cleanup {
  rm -rf "$BUILD_DIR"
}
greet world
"#,
        r#"
function greet 3-5
function cleanup 6-8
"#,
    );
}

#[test]
fn html() {
    golden(
        Language::Html,
        r#"<!DOCTYPE html>
<html>
<head>
  <title>Demo</title>
  <style>
    body { margin: 0; }
  </style>
</head>
<body>
  <h1>Welcome</h1>
  <section>
    <h2>Install <code>demo</code></h2>
    <p>Text</p>
  </section>
  <script src="app.js"></script>
</body>
</html>
"#,
        r#"
style <style> 5-7
heading Welcome 10-10
heading Install demo 12-12
script <script src="app.js"> 15-15
"#,
    );
}

#[test]
fn css() {
    golden(
        Language::Css,
        r#"@import url("x.css");
body, html {
  margin: 0;
}
.card > .title:hover {
  color: red;
}
@media (max-width: 600px) {
  .card { padding: 0; }
}
@keyframes spin {
  from { transform: rotate(0); }
  to { transform: rotate(360deg); }
}
"#,
        r#"
rule body, html 2-4
rule .card > .title:hover 5-7
rule @media (max-width: 600px) 8-10
  rule .card 9-9
rule @keyframes spin 11-14
"#,
    );
}

#[test]
fn a_broken_file_keeps_the_outline_around_the_break() {
    let source =
        "struct Config {\n    name: String,\n}\n\n)) stray\n\nfn save(config: &Config) {}\n";
    let items = outline(Language::Rust, source).unwrap();
    assert_eq!(render(&items), "struct Config 1-3\nfunction save 7-7\n");
    // Where the parser recovers by nesting, the outline nests too: with the
    // `}` of an `impl` missing, the next function joins it as a method.
    let source = "impl Config {\n    fn load() {}\n\nfn save() {}\n";
    let items = outline(Language::Rust, source).unwrap();
    assert_eq!(
        render(&items),
        "impl Config 1-4\n  method load 2-2\n  method save 4-4\n"
    );
}

#[test]
fn items_serialize_in_camel_case_without_empty_children() {
    let items = outline(
        Language::Python,
        "class A:\n    def f(self):\n        pass\n\n\ndef g():\n    pass\n",
    )
    .unwrap();
    assert_eq!(
        serde_json::to_value(&items).unwrap(),
        serde_json::json!([
            {
                "kind": "class",
                "name": "A",
                "startLine": 1,
                "endLine": 3,
                "children": [
                    { "kind": "method", "name": "f", "startLine": 2, "endLine": 3 }
                ]
            },
            { "kind": "function", "name": "g", "startLine": 6, "endLine": 7 }
        ])
    );
}

#[test]
fn deep_nesting_stays_bounded() {
    // Thousands of nested namespaces: the outline stops descending instead
    // of exhausting the stack.
    let depth = 2_000;
    let source = format!("{}{}", "namespace a {\n".repeat(depth), "}\n".repeat(depth));
    let items = outline(Language::Cpp, &source).unwrap();
    let mut levels = 0;
    let mut current = &items;
    while let Some(first) = current.first() {
        levels += 1;
        current = &first.children;
    }
    assert!(levels > 10 && levels < 100, "{levels} levels");
}
