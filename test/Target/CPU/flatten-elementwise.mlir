// RUN: tcc-opt %s --tcc-flatten-elementwise | FileCheck %s

// An elementwise op on contiguous buffers (here in place) loops once over
// all 2*3*4 elements of collapsed views, its body unchanged.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-DAG: #[[M:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[HW:.*]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-DAG: #[[NONE:.*]] = affine_map<(d0, d1, d2) -> ()>
// CHECK-DAG: #[[UNIT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, 0, 0)>
// CHECK-LABEL: func.func @silu
// CHECK: %[[IN:.*]] = memref.collapse_shape %arg0 {{\[\[}}0, 1, 2]] : memref<2x3x4xf32> into memref<24xf32>
// CHECK: %[[OUT:.*]] = memref.collapse_shape %arg0 {{\[\[}}0, 1, 2]] : memref<2x3x4xf32> into memref<24xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], iterator_types = ["parallel"]} ins(%[[IN]] : memref<24xf32>) outs(%[[OUT]] : memref<24xf32>)
// CHECK: math.exp
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @silu(%x: memref<2x3x4xf32>) {
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<2x3x4xf32>) outs(%x : memref<2x3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    %e = math.exp %n : f32
    %one = arith.constant 1.0 : f32
    %d = arith.addf %e, %one : f32
    %s = arith.divf %in, %d : f32
    linalg.yield %s : f32
  }
  return
}

// A broadcast, a strided view, a reduction and an op reading its indices
// are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: collapse_shape
// CHECK-COUNT-4: linalg.generic {indexing_maps = [#{{.*}}], iterator_types = ["parallel", "{{parallel|reduction}}"]}
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#first = affine_map<(d0, d1) -> (d0)>
func.func @left_alone(%a: memref<4x8xf32>, %b: memref<8xf32>, %s: memref<4x8xf32, strided<[16, 1]>>, %r: memref<4xf32>, %i: memref<4x8xindex>) {
  linalg.generic {indexing_maps = [#row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%b : memref<8xf32>) outs(%a : memref<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : memref<4x8xf32, strided<[16, 1]>>) outs(%a : memref<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id2, #first], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<4x8xf32>) outs(%r : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%i : memref<4x8xindex>) {
  ^bb0(%out: index):
    %0 = linalg.index 1 : index
    linalg.yield %0 : index
  }
  return
}

// Broadcasts run their trailing loops as one when every operand reads all
// of them in order (from dims it can collapse, here a strided slice of
// channels) or none of them: a per-channel scale over 2x3x4 maps loops over
// 12 map positions; an [H, W] divisor of every channel's map loops over
// them too, and the scalar operand is left as it is; a [1, C, 1, 1] scale
// read with zeros into its unit dims is left as it is too. A 4-d op whose
// last loop only one operand reads keeps its loops.
// CHECK-LABEL: func.func @broadcasts
// CHECK: %[[X:.*]] = memref.collapse_shape %arg0 {{\[\[}}0], [1], [2, 3]] : memref<1x5x3x4xf32, strided<[120, 12, 4, 1], offset: 12>> into memref<1x5x12xf32, strided<[120, 12, 1], offset: 12>>
// CHECK: %[[Y:.*]] = memref.collapse_shape %arg2 {{\[\[}}0], [1], [2, 3]] : memref<1x5x3x4xf32> into memref<1x5x12xf32>
// CHECK: linalg.generic {indexing_maps = [#[[M]], #[[C]], #[[M]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[X]], %arg1 : {{.*}}) outs(%[[Y]] : memref<1x5x12xf32>)
// CHECK: %[[D:.*]] = memref.collapse_shape %arg3 {{\[\[}}0, 1]] : memref<3x4xf32> into memref<12xf32>
// CHECK: %[[Y2:.*]] = memref.collapse_shape %arg2 {{\[\[}}0], [1], [2, 3]]
// CHECK: linalg.generic {indexing_maps = [#[[HW]], #[[NONE]], #[[M]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[D]], %arg4 : memref<12xf32>, memref<f32>) outs(%[[Y2]] : memref<1x5x12xf32>)
// CHECK: %[[Y3:.*]] = memref.collapse_shape %arg2 {{\[\[}}0], [1], [2, 3]]
// CHECK: linalg.generic {indexing_maps = [#[[UNIT]], #[[M]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg6 : memref<1x5x1x1xf32>) outs(%[[Y3]] : memref<1x5x12xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel"]
#unit = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#nchw = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
#hw = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#w = affine_map<(d0, d1, d2, d3) -> (d3)>
#none = affine_map<(d0, d1, d2, d3) -> ()>
func.func @broadcasts(%x: memref<1x5x3x4xf32, strided<[120, 12, 4, 1], offset: 12>>, %s: memref<5xf32>, %y: memref<1x5x3x4xf32>, %d: memref<3x4xf32>, %k: memref<f32>, %r: memref<4xf32>, %t: memref<1x5x1x1xf32>) {
  linalg.generic {indexing_maps = [#nchw, #ch, #nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %s : memref<1x5x3x4xf32, strided<[120, 12, 4, 1], offset: 12>>, memref<5xf32>) outs(%y : memref<1x5x3x4xf32>) {
  ^bb0(%in: f32, %sc: f32, %out: f32):
    %0 = arith.mulf %in, %sc : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#hw, #none, #nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%d, %k : memref<3x4xf32>, memref<f32>) outs(%y : memref<1x5x3x4xf32>) {
  ^bb0(%in: f32, %kk: f32, %out: f32):
    %0 = arith.divf %out, %in : f32
    %1 = arith.mulf %0, %kk : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#unit, #nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%t : memref<1x5x1x1xf32>) outs(%y : memref<1x5x3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %out : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#w, #nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r : memref<4xf32>) outs(%y : memref<1x5x3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}

// A fill writes the longest run of trailing dims of its buffer that
// collapses as one loop: all of a thread's chunk of channels of a pool's
// output; each plane of a view whose planes (3x4) lie 16 elements apart;
// nothing of a view whose rows of 8 lie 9 apart.
// CHECK-LABEL: func.func @fills
// CHECK: %[[A:.*]] = memref.collapse_shape %arg0 {{\[\[}}0, 1, 2, 3]] : memref<1x8x27x27xf32, strided<[93312, 729, 27, 1], offset: ?>> into memref<5832xf32, strided<[1], offset: ?>>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[A]] : memref<5832xf32, strided<[1], offset: ?>>)
// CHECK: %[[B:.*]] = memref.collapse_shape %arg1 {{\[\[}}0], [1, 2]] : memref<2x3x4xf32, strided<[16, 4, 1]>> into memref<2x12xf32, strided<[16, 1]>>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[B]] : memref<2x12xf32, strided<[16, 1]>>)
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%arg2 : memref<4x8xf32, strided<[9, 1]>>)
func.func @fills(%a: memref<1x8x27x27xf32, strided<[93312, 729, 27, 1], offset: ?>>, %b: memref<2x3x4xf32, strided<[16, 4, 1]>>, %c: memref<4x8xf32, strided<[9, 1]>>) {
  %cst = arith.constant 0xFF800000 : f32
  linalg.fill ins(%cst : f32) outs(%a : memref<1x8x27x27xf32, strided<[93312, 729, 27, 1], offset: ?>>)
  linalg.fill ins(%cst : f32) outs(%b : memref<2x3x4xf32, strided<[16, 4, 1]>>)
  linalg.fill ins(%cst : f32) outs(%c : memref<4x8xf32, strided<[9, 1]>>)
  return
}
